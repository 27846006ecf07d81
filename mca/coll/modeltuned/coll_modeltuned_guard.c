/*
 * The guard: the job's own calls check modeltuned's picks. Where the model left Open MPI's default
 * for a call kind, size class and root, the guard times windows of consecutive calls that alternate
 * the pick and the default, at call counts fixed in advance; at a window's end the ranks add up
 * their medians in one small allreduce, so all reach the same verdict at the same call. A pick
 * slower than the default by more than the tolerance in two windows in a row is taken back on every
 * rank; one that wins is compared again after twice as many calls (docs/model.md, "The guard").
 */
#include "ompi_config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coll_modeltuned_call.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/printf.h"

/* One window's verdict can be noise: the pick is taken back after this many lost in a row. */
#define LOSSES_TO_TAKE_BACK 2
/* Gaps grow up to here: a pick that far has won some twenty windows in a row. */
#define MAX_GAP (UINT32_C(1) << 30)

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t) t.tv_sec * 1000000000ULL + (uint64_t) t.tv_nsec;
}

void mca_coll_modeltuned_call_extras(mca_coll_modeltuned_module_t *m, int kind,
                                     struct ompi_communicator_t *comm,
                                     const mca_coll_modeltuned_decision_t *d, size_t bytes,
                                     int root)
{
    if (m->call_flags & MCA_COLL_MODELTUNED_TRACE_CALLS)
        mca_coll_modeltuned_trace(comm, mca_coll_modeltuned_kind_op(kind), bytes, root, d);
    if ((m->call_flags & MCA_COLL_MODELTUNED_DELAY_PICKS) && NULL != d) {
        /* Asleep, not spinning: the tests run more ranks than cores, where a spinning rank would
         * slow whichever calls the others run meanwhile, the default's too. */
        const int us = mca_coll_modeltuned_component.guard_test_delay_us;
        struct timespec delay = {.tv_sec = us / 1000000, .tv_nsec = 1000L * (us % 1000000)};
        while (0 != nanosleep(&delay, &delay))
            ;
    }
}

static void arm(mca_coll_modeltuned_guard_t *g, mca_coll_modeltuned_decision_t *d, uint32_t calls)
{
    g->armed = calls;
    d->countdown = calls;
}

static void unwatch(mca_coll_modeltuned_guard_t *g, mca_coll_modeltuned_decision_t *d)
{
    g->in_use = false;
    d->guard = 0;
    d->countdown = UINT32_MAX;
}

/* A window is four blocks of calls, one arm each, in the order pick, default, default, pick or the
 * reverse: a call that ends late delays the next one on the ranks waiting for it, so the first call
 * of each block, which pays for the other arm's last, is run but not timed. Each arm has samples/2
 * timed calls per block, samples in all. */
static int block_calls(void) { return mca_coll_modeltuned_component.guard_samples / 2 + 1; }

static int window_calls(void) { return 4 * block_calls(); }

/* Calls before the first window: a window per unit of predicted gain beyond 1, at least one, so
 * that a pick that is wrong from the start is taken back early (a benchmark may make only 100
 * calls of a size), and one predicted to win widely, which the default's calls of a window cost
 * more, a little later. */
static uint32_t first_gap(double expected_gain)
{
    const double windows = ceil(fmax(expected_gain - 1.0, 1.0));
    return windows * window_calls() > MAX_GAP ? MAX_GAP : (uint32_t) (windows * window_calls());
}

/* The gap after a window the pick won: twice the last, and at least what keeps the default's calls
 * of each window, (gain - 1) pick calls each, within the budget's share of the calls between. */
static uint32_t next_gap(const mca_coll_modeltuned_guard_t *g)
{
    const double window_cost = window_calls() / 2.0 * fmax(g->expected_gain - 1.0, 0.0);
    const double gap = fmax(2.0 * g->gap,
                            ceil(window_cost / mca_coll_modeltuned_component.guard_budget));
    return gap > MAX_GAP ? MAX_GAP : (uint32_t) gap;
}

void mca_coll_modeltuned_guard_watch(mca_coll_modeltuned_module_t *m, int kind, int size_class,
                                     int root, mca_coll_modeltuned_decision_t *d,
                                     const mt_decision *decision)
{
    const int op = mca_coll_modeltuned_kind_op(kind);
    /* Lists the user narrowed are the user's choice, the default perhaps not among them. */
    if (!m->guard_enabled || 0 == d->algorithm || decision->default_us <= 0 ||
        m->allowed[op] != mca_coll_modeltuned_component.runnable[op])
        return;
    int free_guard = -1;
    for (int i = 0; i < m->guards_used && free_guard < 0; ++i)
        if (!m->guards[i].in_use)
            free_guard = i;
    if (free_guard < 0 && m->guards_used < MCA_COLL_MODELTUNED_GUARDS)
        free_guard = m->guards_used++;
    if (free_guard < 0) /* every rank watches the same decisions: all run out at the same one */
        return;
    mca_coll_modeltuned_guard_t *g = &m->guards[free_guard];
    *g = (mca_coll_modeltuned_guard_t){.root = root,
                                       .kind = (int8_t) kind,
                                       .size_class = (uint8_t) size_class,
                                       .in_use = true,
                                       .expected_gain = decision->predicted_us > 0
                                                            ? decision->default_us /
                                                                  decision->predicted_us
                                                            : 1.0};
    g->gap = first_gap(g->expected_gain);
    d->guard = (uint8_t) (free_guard + 1);
    arm(g, d, g->gap);
}

/* Whether the window's blocks run in the order default, pick, pick, default: drawn from the window
 * and the decision's key, the same on every rank, so that neither arm always runs first. */
static bool default_first(const mca_coll_modeltuned_guard_t *g)
{
    uint64_t x = ((uint64_t) g->window << 32) ^ ((uint64_t) (uint32_t) g->root << 12) ^
                 ((uint64_t) g->kind << 7) ^ g->size_class;
    x += 0x9E3779B97F4A7C15ULL; /* splitmix64's finalizer */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return 0 != (x & 1);
}

static int64_t median_ns(const uint32_t *samples, int n)
{
    uint32_t v[MCA_COLL_MODELTUNED_GUARD_SAMPLES_MAX];
    memcpy(v, samples, sizeof *v * n);
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && v[j - 1] > v[j]; --j) {
            const uint32_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return ((int64_t) v[(n - 1) / 2] + (int64_t) v[n / 2]) / 2;
}

/* The pick and the default of guard `g` as a line names them. */
static void describe_arms(const mca_coll_modeltuned_guard_t *g,
                          const mca_coll_modeltuned_decision_t *pick, char *pick_text,
                          char *default_text, size_t len)
{
    const int op = mca_coll_modeltuned_kind_op(g->kind);
    mt_describe(op, pick->algorithm, pick->segsize, 0 != pick->component ? 0 : pick->fanout,
                pick_text, len);
    snprintf(default_text, len, "handed back");
}

/* The first byte count of a size class ([2^(k-1), 2^k); class 0 the empty call, a barrier's). */
static unsigned long long class_from(int size_class)
{
    return 0 == size_class ? 0 : 1ULL << (size_class - 1);
}

/* A window as the decision file records it (a JSON object): "takeback", or "window" with the
 * verdict of one that did not take the pick back. */
static void record_window(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                          const mca_coll_modeltuned_guard_t *g, const char *event, const char *pick,
                          const char *instead, double pick_us, double default_us)
{
    const int op = mca_coll_modeltuned_kind_op(g->kind);
    char *object = NULL;
    if (0 > opal_asprintf(&object,
                          "{\"event\":\"%s\",\"op\":\"%s\",\"size_class\":%d,"
                          "\"bytes_from\":%llu,\"bytes_below\":%llu,\"root\":%d,\"pick\":\"%s\","
                          "\"default\":\"%s\",\"call\":%llu,\"windows\":%u,\"pick_us\":%.4f,"
                          "\"default_us\":%.4f,\"tolerance\":%g%s}",
                          event, mca_coll_modeltuned_op_name(op), g->size_class,
                          class_from(g->size_class), 1ULL << g->size_class, g->root, pick, instead,
                          (unsigned long long) g->calls, g->window, pick_us, default_us,
                          mca_coll_modeltuned_component.guard_tolerance,
                          0 == strcmp(event, "window")
                              ? (g->losses ? ",\"verdict\":\"lost\"" : ",\"verdict\":\"won\"")
                              : ""))
        return;
    mca_coll_modeltuned_record(m, comm, op, object);
    free(object);
}

/* The window's verdict in the lines: each window at verbose 10, a take-back at verbose 1; every
 * window in the decision file. Times are the mean over ranks of each rank's median. */
static void announce_window(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                            const mca_coll_modeltuned_guard_t *g,
                            const mca_coll_modeltuned_decision_t *pick, const int64_t sum[2],
                            bool taken_back)
{
    const mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const bool speaks = 0 == ompi_comm_rank(comm) &&
                        (c->verbose >= 10 || (taken_back && c->verbose >= 1));
    const bool records = mca_coll_modeltuned_records(comm);
    if (!speaks && !records)
        return;
    char pick_text[96], default_text[96];
    describe_arms(g, pick, pick_text, default_text, sizeof pick_text);
    const double pick_us = sum[0] / 1e3 / ompi_comm_size(comm);
    const double default_us = sum[1] / 1e3 / ompi_comm_size(comm);
    const char *op = mca_coll_modeltuned_op_name(mca_coll_modeltuned_kind_op(g->kind));
    if (speaks)
        opal_output(c->output,
                    "coll:modeltuned:%s cid=%d name=%s op=%s bytes=%llu-%llu root=%d pick=%s "
                    "pick_us=%.3f default=%s default_us=%.3f window=%u call=%llu verdict=%s%s",
                    taken_back ? "takeback" : "guard", mca_coll_modeltuned_cid(comm), comm->c_name,
                    op, class_from(g->size_class), (1ULL << g->size_class) - 1, g->root, pick_text,
                    pick_us, default_text, default_us, g->window, (unsigned long long) g->calls,
                    taken_back  ? "taken back: Open MPI's default runs from the next call on"
                    : g->losses ? "lost (compared again at once)"
                                : "kept",
                    taken_back || g->losses ? "" : " (next window after twice as many calls)");
    if (records)
        record_window(m, comm, g, taken_back ? "takeback" : "window", pick_text, default_text,
                      pick_us, default_us);
}

static void take_back(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                      mca_coll_modeltuned_guard_t *g, mca_coll_modeltuned_decision_t *d,
                      const int64_t sum[2])
{
    const mca_coll_modeltuned_decision_t pick = *d;
    *d = (mca_coll_modeltuned_decision_t){.countdown = UINT32_MAX}; /* handed back from now on */
    /* The slot now differs from any copy remembered for this root: written back when replaced. */
    m->rows[g->kind].in_remembered[g->size_class] = 0;
    g->in_use = false;
    mca_coll_modeltuned_guard_counted(mca_coll_modeltuned_kind_op(g->kind), true);
    announce_window(m, comm, g, &pick, sum, true);
}

/* The sums over the ranks of `comm` of `n` values, by the allreduce of the component below
 * modeltuned (its own would be decided, counted and guarded): what the windows agree on. */
static int sum_below(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                     const int64_t *mine, int64_t *sum, int n)
{
    return MCA_COLL_MODELTUNED_PREVIOUS_FN(m, ALLREDUCE, mca_coll_base_module_allreduce_fn_t)(
        mine, sum, n, MPI_INT64_T, MPI_SUM, comm,
        MCA_COLL_MODELTUNED_PREVIOUS_MODULE(m, ALLREDUCE));
}

/* After the window's last call: every rank adds its medians to the others' and reads the same
 * sums, so the verdict, and the call it takes effect at, are the same everywhere. */
static void conclude_window(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                            mca_coll_modeltuned_guard_t *g, mca_coll_modeltuned_decision_t *d)
{
    const mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    int64_t mine[2] = {median_ns(g->pick_ns, c->guard_samples),
                       median_ns(g->default_ns, c->guard_samples)};
    int64_t sum[2] = {0, 0};
    const int rc = sum_below(m, comm, mine, sum, 2);
    ++g->window;
    g->sampled = 0;
    mca_coll_modeltuned_guard_counted(mca_coll_modeltuned_kind_op(g->kind), false);
    if (OMPI_SUCCESS != rc) { /* errors are fatal unless the program set a handler: then stop */
        unwatch(g, d);
        return;
    }
    const bool lost = (double) sum[0] > (1.0 + c->guard_tolerance) * (double) sum[1];
    g->losses = lost ? g->losses + 1 : 0;
    if (g->losses >= LOSSES_TO_TAKE_BACK) {
        take_back(m, comm, g, d, sum);
        return;
    }
    if (!lost) {
        /* What the window's default calls cost is what they measured, not what the model expected:
         * after a pause they run cold (coll/sm's bcast of 1 B against a default of 1.6 us, not
         * 0.2, in its first window), and the budget holds for that. */
        if (sum[0] > 0)
            g->expected_gain = (double) sum[1] / (double) sum[0];
        g->gap = next_gap(g);
    }
    arm(g, d, lost ? 1 : g->gap);
    announce_window(m, comm, g, d, sum, false);
}

int mca_coll_modeltuned_guarded(const mca_coll_modeltuned_call_t *call,
                                mca_coll_modeltuned_decision_t *d)
{
    if (0 == d->guard) { /* an unwatched decision's countdown wrapped around */
        d->countdown = UINT32_MAX;
        return call->run(call, d);
    }
    mca_coll_modeltuned_guard_t *g = &call->module->guards[d->guard - 1];
    g->calls += g->armed;
    const int block = g->sampled / block_calls(), at = g->sampled % block_calls();
    const bool on_default = (0 == block || 3 == block) == default_first(g);
    const uint64_t start = now_ns();
    const int rc = call->run(call, on_default ? NULL : d);
    const uint64_t elapsed = now_ns() - start;
    if (0 != at) { /* blocks 0, 1 are each arm's first, 2, 3 their second */
        uint32_t *arm_ns = on_default ? g->default_ns : g->pick_ns;
        arm_ns[(block / 2) * (block_calls() - 1) + at - 1] = elapsed > UINT32_MAX
                                                                 ? UINT32_MAX
                                                                 : (uint32_t) elapsed;
    }
    if (++g->sampled < window_calls())
        arm(g, d, 1);
    else
        conclude_window(call->module, call->comm, g, d);
    return rc;
}

/* The guard's MCA parameters (docs/model.md "The guard"); its counters are registered with the
 * others (coll_modeltuned_counters.c). */
void mca_coll_modeltuned_guard_register(mca_coll_modeltuned_component_t *c)
{
    const mca_base_component_t *v = &c->super.collm_version;
    c->guard = true;
    (void) mca_base_component_var_register(
        v, "guard",
        "Check the picks that leave Open MPI's default against it during the run: now and then, "
        "at the same call on every rank, run a few calls of each and take the pick back for good "
        "when it is the slower. 0: never; every call of a size class then runs the same algorithm "
        "(for floating-point sums that must be reproducible from run to run). Must be the same on "
        "every rank",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_ALL, &c->guard);
    c->guard_samples = 4;
    (void) mca_base_component_var_register(
        v, "guard_samples",
        "Calls of the pick and as many of Open MPI's default that one comparison window times "
        "(an even number, 2-16; the window's verdict compares their medians; the window runs two "
        "blocks of each arm, each with one more call, untimed). Must be the same on every rank",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL,
        &c->guard_samples);
    c->guard_budget = 0.01;
    (void) mca_base_component_var_register(
        v, "guard_budget",
        "Share of a watched pick's time that its comparisons may cost once it has won its first "
        "window, as the model predicts it (0-1, not 0): after each window the pick wins, the next "
        "comes twice as far on, and at least as far as that takes. Must be the same on every rank",
        MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL,
        &c->guard_budget);
    c->guard_tolerance = 0.10;
    (void) mca_base_component_var_register(
        v, "guard_tolerance",
        "A window counts against the pick when its calls took more than (1 + this) times the "
        "default's (sums over ranks of each rank's median); two such windows in a row take it "
        "back. Must be the same on every rank",
        MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL,
        &c->guard_tolerance);
    c->guard_test_delay_us = 0;
    (void) mca_base_component_var_register(
        v, "guard_test_delay_us",
        "For tests of the guard only: delay every call that runs a pick of the model by this many "
        "microseconds (asleep), on the rank chosen by coll_modeltuned_guard_test_delay_rank",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_LOCAL,
        &c->guard_test_delay_us);
    c->guard_test_delay_rank = -1;
    (void) mca_base_component_var_register(
        v, "guard_test_delay_rank",
        "For tests of the guard only: the rank in MPI_COMM_WORLD whose picks "
        "coll_modeltuned_guard_test_delay_us slows; -1: every rank",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_LOCAL,
        &c->guard_test_delay_rank);
}

/* Whether the guard's parameters are in range (else modeltuned steps aside: load_table). */
bool mca_coll_modeltuned_guard_parameters_valid(const mca_coll_modeltuned_component_t *c)
{
    return !(c->guard_samples < 2 || c->guard_samples > MCA_COLL_MODELTUNED_GUARD_SAMPLES_MAX ||
             0 != c->guard_samples % 2 || !(c->guard_budget > 0 && c->guard_budget <= 1) ||
             !(c->guard_tolerance >= 0));
}
