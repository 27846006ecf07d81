/*
 * The component's MPI_T counters: the calls each collective ran per algorithm
 * (coll_modeltuned_<name>_calls, from the live modules' rows and those of modules gone), and the
 * guard's windows and take-backs; and the list of live modules they add up.
 */
#include "ompi_config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_modeltuned.h"
#include "opal/mca/base/mca_base_pvar.h"

/* Guards the component's counters and its list of live modules (communicators are created and
 * freed on any thread). */
static pthread_mutex_t counters_lock = PTHREAD_MUTEX_INITIALIZER;

void mca_coll_modeltuned_counters_add(mca_coll_modeltuned_module_t *m)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    pthread_mutex_lock(&counters_lock);
    if (c->live_count == c->live_capacity) {
        const size_t capacity = c->live_capacity ? 2 * c->live_capacity : 16;
        void *grown = realloc(c->live, capacity * sizeof *c->live);
        if (NULL != grown) {
            c->live = grown;
            c->live_capacity = capacity;
        }
    }
    if (c->live_count < c->live_capacity) /* else out of memory: its calls go uncounted */
        c->live[c->live_count++] = m;
    pthread_mutex_unlock(&counters_lock);
}

void mca_coll_modeltuned_counters_remove(mca_coll_modeltuned_module_t *m)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    pthread_mutex_lock(&counters_lock);
    for (size_t i = 0; i < c->live_count; ++i) {
        if (c->live[i] != m)
            continue;
        for (int kind = 0; kind < MCA_COLL_MODELTUNED_KINDS; ++kind) {
            if (!mca_coll_modeltuned_calls_ready(m, kind)) /* never called */
                continue;
            unsigned long long *total = c->calls[mca_coll_modeltuned_kind_op(kind)];
            for (int a = 0; a < c->slots; ++a) /* the numbers the registry has, not the room */
                total[a] += m->rows[kind].calls[a];
        }
        c->live[i] = c->live[--c->live_count];
        break;
    }
    pthread_mutex_unlock(&counters_lock);
}

/* The counters' context is their operation (MT_OP_*); sized after registration (component.c). The
 * calls of modules gone plus those of every live module's rows of that op. */
static int counters_get(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    const mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const int op = (int) (intptr_t) pvar->ctx;
    unsigned long long *out = value;
    pthread_mutex_lock(&counters_lock);
    memcpy(out, c->calls[op], sizeof(unsigned long long) * c->slots);
    for (size_t i = 0; i < c->live_count; ++i)
        for (int kind = 0; kind < MCA_COLL_MODELTUNED_KINDS; ++kind)
            if (mca_coll_modeltuned_kind_op(kind) == op &&
                mca_coll_modeltuned_calls_ready(c->live[i], kind))
                for (int a = 0; a < c->slots; ++a)
                    out[a] += c->live[i]->rows[kind].calls[a];
    pthread_mutex_unlock(&counters_lock);
    return OMPI_SUCCESS;
}

static int counters_notify(struct mca_base_pvar_t *pvar, mca_base_pvar_event_t event, void *obj,
                           int *count)
{
    if (MCA_BASE_PVAR_HANDLE_BIND == event)
        *count = mca_coll_modeltuned_component.slots;
    return OMPI_SUCCESS;
}

void mca_coll_modeltuned_guard_counted(int op, bool takeback)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    pthread_mutex_lock(&counters_lock);
    ++c->guard_windows[op];
    if (takeback)
        ++c->takebacks[op];
    pthread_mutex_unlock(&counters_lock);
}

/* The guard's counters, one per collective in the list's order; the context is the array. */
static int guard_counters_get(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    pthread_mutex_lock(&counters_lock);
    memcpy(value, pvar->ctx, sizeof(unsigned long long) * MT_OPS);
    pthread_mutex_unlock(&counters_lock);
    return OMPI_SUCCESS;
}

static int guard_counters_notify(struct mca_base_pvar_t *pvar, mca_base_pvar_event_t event,
                                 void *obj, int *count)
{
    if (MCA_BASE_PVAR_HANDLE_BIND == event)
        *count = MT_OPS;
    return OMPI_SUCCESS;
}

/* One of the guard's MPI_T counters, one value per collective: `what` names them at its %s. */
static void register_guard_counter(const mca_base_component_t *v, const char *name,
                                   const char *what, unsigned long long *counts)
{
    char names[256], description[512];
    mca_coll_modeltuned_collective_names(names, sizeof names, ", ");
    snprintf(description, sizeof description, what, names);
    (void) mca_base_component_pvar_register(v, name, description, OPAL_INFO_LVL_4,
                                            MPI_T_PVAR_CLASS_COUNTER,
                                            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                            MPI_T_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY |
                                                MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            guard_counters_get, NULL, guard_counters_notify,
                                            counts);
}

/* The MPI_T counter coll_modeltuned_<name>_calls of collective `op`. */
void mca_coll_modeltuned_counters_register_calls(const mca_coll_modeltuned_component_t *c, int op)
{
    const mca_base_component_t *v = &c->super.collm_version;
    const char *op_name = mca_coll_modeltuned_op_name(op);
    char name[32], description[1024];
    snprintf(name, sizeof name, "%s_calls", op_name);
    snprintf(description, sizeof description,
             "MPI_%c%s calls modeltuned ran, per tuned algorithm "
             "number (index 0: Open MPI's default, handed to the previous component)",
             op_name[0] - 'a' + 'A', op_name + 1);
    (void) mca_base_component_pvar_register(v, name, description, OPAL_INFO_LVL_4,
                                            MPI_T_PVAR_CLASS_COUNTER,
                                            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                            MPI_T_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY |
                                                MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            counters_get, NULL, counters_notify,
                                            (void *) (intptr_t) op);
}

/* The guard's MPI_T counters: its take-backs and its windows, per collective. */
void mca_coll_modeltuned_counters_register_guard(mca_coll_modeltuned_component_t *c)
{
    const mca_base_component_t *v = &c->super.collm_version;
    register_guard_counter(v, "takebacks",
                           "Picks the guard took back, per collective (%s): each was slower than "
                           "Open MPI's default in two comparison windows in a row",
                           c->takebacks);
    register_guard_counter(
        v, "guard_windows",
        "Comparison windows the guard concluded, per collective (%s): each ran a "
        "few calls of a pick and of Open MPI's default and one small allreduce",
        c->guard_windows);
}

void mca_coll_modeltuned_counters_close(mca_coll_modeltuned_component_t *c)
{
    pthread_mutex_lock(&counters_lock);
    free(c->live); /* modules outliving close are no longer counted */
    c->live = NULL;
    c->live_count = c->live_capacity = 0;
    pthread_mutex_unlock(&counters_lock);
}
