/*
 * What the component writes: the trace line of each call at verbose 20 and the decision file's
 * JSON lines (the decisions, from coll_modeltuned_decide.c, and the guard's windows, from
 * coll_modeltuned_guard.c). Calls nothing of theirs.
 */
#include "ompi_config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_modeltuned.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "opal/util/printf.h"

/* "%r" (the rank in MPI_COMM_WORLD) or "%p" (the process id) in the name: a file per process. */
static bool per_process(const char *file)
{
    return NULL != strstr(file, "%r") || NULL != strstr(file, "%p");
}

bool mca_coll_modeltuned_records(struct ompi_communicator_t *comm)
{
    const char *file = mca_coll_modeltuned_component.decision_file;
    return NULL != file && '\0' != file[0] && (per_process(file) || 0 == ompi_comm_rank(comm));
}

/* The decision file's name with every "%r" and "%p" replaced. */
static void decision_path(const char *file, char *path, size_t len)
{
    size_t k = 0;
    for (const char *p = file; *p && k + 1 < len; ++p) {
        if ('%' == p[0] && ('r' == p[1] || 'p' == p[1])) {
            const unsigned long value = 'r' == p[1] ? (unsigned long) OMPI_PROC_MY_NAME->vpid
                                                    : (unsigned long) getpid();
            const int n = snprintf(path + k, len - k, "%lu", value);
            if (n < 0 || (size_t) n >= len - k)
                break;
            k += (size_t) n;
            ++p;
        } else {
            path[k++] = *p;
        }
    }
    path[k] = '\0';
}

/* One JSON line per record: `object`'s fields after the communicator's and the rank's. Appended
 * with a single write() so lines from several processes do not interleave. */
void mca_coll_modeltuned_record(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                                int op, const char *object)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    char path[4096], *line = NULL;
    decision_path(c->decision_file, path, sizeof path);
    char channels[64];
    mt_comm_model_channels(m->model, channels, sizeof channels);
    char name[2 * MPI_MAX_OBJECT_NAME]; /* the communicator's name, JSON-escaped */
    size_t k = 0;
    for (const char *p = comm->c_name; *p && k + 2 < sizeof name; ++p) {
        if ('"' == *p || '\\' == *p)
            name[k++] = '\\';
        name[k++] = (unsigned char) *p < 0x20 ? ' ' : *p;
    }
    name[k] = '\0';
    /* Where a call handed back goes: tuned, or han handing it to tuned (module.c) */
    const char *fallback = NULL != m->fallback[op] ? m->fallback[op] : "unknown";
    /* object is a JSON object: splice the communicator's fields in after its '{'. */
    int n = opal_asprintf(&line,
                          "{\"cid\":%d,\"comm\":\"%s\",\"world_rank\":%u,\"comm_rank\":%d,"
                          "\"channels\":\"%s\",\"fallback\":\"%s\",%s\n",
                          mca_coll_modeltuned_cid(comm), name, (unsigned) OMPI_PROC_MY_NAME->vpid,
                          ompi_comm_rank(comm), channels, fallback, object + 1);
    if (n < 0)
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0 || write(fd, line, n) != n) {
        if (mca_coll_modeltuned_once(
                MCA_COLL_MODELTUNED_ONCE_DECISION_FILE)) /* the calls still run */
            mca_coll_modeltuned_show_help(true, "decision-file-unwritable", path, strerror(errno));
    }
    if (fd >= 0)
        close(fd);
    free(line);
}

void mca_coll_modeltuned_trace(struct ompi_communicator_t *comm, int op, size_t bytes, int root,
                               const mca_coll_modeltuned_decision_t *d)
{
    char parameters[96] = ""; /* d == NULL: the previous component ran it */
    const char *name = NULL != d ? mca_coll_modeltuned_component.algorithms[op][d->algorithm].name
                                 : NULL;
    if (NULL != d)
        snprintf(parameters, sizeof parameters, " segsize=%u fanout=%d", d->segsize,
                 0 != d->component ? 0 : d->fanout);
    opal_output(mca_coll_modeltuned_component.output,
                "coll:modeltuned:%s cid=%d name=%s rank=%d bytes=%zu root=%d algorithm=%s%s",
                mca_coll_modeltuned_op_name(op), mca_coll_modeltuned_cid(comm), comm->c_name,
                ompi_comm_rank(comm), bytes, root, NULL == d ? "fallback" : name, parameters);
}
