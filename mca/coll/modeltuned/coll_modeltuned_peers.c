/*
 * A communicator's ranks as comm_query and setup read them from what they published at open: the
 * scan (whether all can decide alike) and the places (node, package, NUMA, L3, core). Nothing
 * published changes after MPI_Init, so both are kept for the last communicator's ranks, by name in
 * rank order: a dup, or any communicator of the same ranks in the same order, reads none of it
 * again.
 */
#include "ompi_config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "coll_modeltuned.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "ompi/proc/proc.h"

static struct {
    pthread_mutex_t lock;
    int size; /* ranks described, 0: none */
    int capacity;
    opal_process_name_t *names;
    bool scanned, placed;
    mca_coll_modeltuned_scan_t scan;
    mt_place *places;
} last = {.lock = PTHREAD_MUTEX_INITIALIZER};

static const opal_process_name_t *name_of(struct ompi_communicator_t *comm, int rank)
{
    return &ompi_comm_peer_lookup(comm, rank)->super.proc_name;
}

/* Under the lock: whether `last` describes comm's ranks; if not, it is made to (what was read of
 * the ranks before is dropped). False when there is no memory to keep them: read them afresh. */
static bool describes(struct ompi_communicator_t *comm)
{
    const int size = ompi_comm_size(comm);
    bool same = size == last.size;
    for (int r = 0; same && r < size; ++r) {
        const opal_process_name_t *name = name_of(comm, r);
        same = name->jobid == last.names[r].jobid && name->vpid == last.names[r].vpid;
    }
    if (same)
        return true;
    if (size > last.capacity) {
        opal_process_name_t *names = realloc(last.names, sizeof *names * size);
        if (NULL != names)
            last.names = names;
        mt_place *places = realloc(last.places, sizeof *places * size);
        if (NULL != places)
            last.places = places;
        last.size = 0;
        if (NULL == names || NULL == places)
            return false;
        last.capacity = size;
    }
    for (int r = 0; r < size; ++r)
        last.names[r] = *name_of(comm, r);
    last.size = size;
    last.scanned = last.placed = false;
    return true;
}

static void scan(struct ompi_communicator_t *comm, mca_coll_modeltuned_scan_t *out)
{
    const uint64_t mine = mt_table_checksum(mca_coll_modeltuned_component.table);
    const int me = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    *out = (mca_coll_modeltuned_scan_t){.other = -1,
                                        .first_with_table = true,
                                        .oversubscribed = -1,
                                        .other_lists = -1};
    /* On the stack for the usual sizes: a communicator's query allocates nothing it need not. */
    ompi_proc_t *on_stack[64];
    ompi_proc_t **procs = size <= 64 ? on_stack : malloc(sizeof *procs * size);
    for (int r = 0; NULL != procs && r < size; ++r)
        procs[r] = ompi_comm_peer_lookup(comm, r);
    if (NULL != procs)
        mca_coll_modeltuned_read_published(procs, size);
    if (procs != on_stack)
        free(procs);
    for (int r = 0; r < size; ++r) {
        uint64_t values[MCA_COLL_MODELTUNED_PUBLISHED_KEYS];
        bool found[MCA_COLL_MODELTUNED_PUBLISHED_KEYS];
        mca_coll_modeltuned_published_all(ompi_comm_peer_lookup(comm, r), values, found);
        if (out->oversubscribed < 0 && found[MCA_COLL_MODELTUNED_PUBLISHED_OVERSUBSCRIBED] &&
            0 != values[MCA_COLL_MODELTUNED_PUBLISHED_OVERSUBSCRIBED])
            out->oversubscribed = r;
        if (r == me)
            continue;
        if (out->other_lists < 0 && found[MCA_COLL_MODELTUNED_PUBLISHED_SETTINGS] &&
            values[MCA_COLL_MODELTUNED_PUBLISHED_SETTINGS] !=
                mca_coll_modeltuned_component.start_settings)
            out->other_lists = r;
        const uint64_t theirs = values[MCA_COLL_MODELTUNED_PUBLISHED_TABLE];
        const bool none = !found[MCA_COLL_MODELTUNED_PUBLISHED_TABLE] || 0 == theirs;
        if (r < me && !none && theirs == mine)
            out->first_with_table = false;
        if (out->other < 0 && (none || theirs != mine)) {
            out->other = r;
            out->missing = none;
        }
    }
}

void mca_coll_modeltuned_peers_scan(struct ompi_communicator_t *comm,
                                    mca_coll_modeltuned_scan_t *out)
{
    pthread_mutex_lock(&last.lock);
    const bool kept = describes(comm);
    if (kept && last.scanned) {
        *out = last.scan;
    } else {
        scan(comm, out);
        if (kept) {
            last.scan = *out;
            last.scanned = true;
        }
    }
    pthread_mutex_unlock(&last.lock);
}

typedef struct host_rank {
    bool known;
    uint64_t host; /* hash of the node name */
    int rank;
} host_rank;

/* By host (unknown hosts last), then by rank: each host's first rank leads its group. */
static int compare_host_rank(const void *a, const void *b)
{
    const host_rank *x = a, *y = b;
    if (x->known != y->known)
        return x->known ? -1 : 1;
    if (x->known && x->host != y->host)
        return x->host < y->host ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

static int place(struct ompi_communicator_t *comm, mt_place *places)
{
    const int size = ompi_comm_size(comm);
    host_rank on_stack[64];
    host_rank *by_host = size <= 64 ? on_stack : malloc(sizeof *by_host * size);
    if (NULL == by_host)
        return OMPI_ERR_OUT_OF_RESOURCE;
    for (int r = 0; r < size; ++r) {
        uint64_t values[MCA_COLL_MODELTUNED_PUBLISHED_KEYS];
        bool found[MCA_COLL_MODELTUNED_PUBLISHED_KEYS];
        mca_coll_modeltuned_published_all(ompi_comm_peer_lookup(comm, r), values, found);
        mca_coll_modeltuned_unpack_place(values[MCA_COLL_MODELTUNED_PUBLISHED_PLACE], &places[r]);
        by_host[r] = (host_rank){found[MCA_COLL_MODELTUNED_PUBLISHED_HOST],
                                 values[MCA_COLL_MODELTUNED_PUBLISHED_HOST], r};
    }
    /* Node id: the first rank on the same host (a rank whose host is unknown: a node of its own).
     * Sorted, not compared pairwise: O(P log P) at any number of nodes. */
    qsort(by_host, size, sizeof *by_host, compare_host_rank);
    for (int k = 0; k < size; ++k) {
        const bool same = k > 0 && by_host[k].known && by_host[k - 1].known &&
                          by_host[k].host == by_host[k - 1].host;
        places[by_host[k].rank].node = same ? places[by_host[k - 1].rank].node : by_host[k].rank;
    }
    if (by_host != on_stack)
        free(by_host);
    return OMPI_SUCCESS;
}

int mca_coll_modeltuned_peers_places(struct ompi_communicator_t *comm, mt_place *places)
{
    int rc = OMPI_SUCCESS;
    pthread_mutex_lock(&last.lock);
    const bool kept = describes(comm);
    if (kept && last.placed) {
        memcpy(places, last.places, sizeof *places * (size_t) last.size);
    } else {
        rc = place(comm, places);
        if (kept && OMPI_SUCCESS == rc) {
            memcpy(last.places, places, sizeof *places * (size_t) last.size);
            last.placed = true;
        }
    }
    pthread_mutex_unlock(&last.lock);
    return rc;
}

void mca_coll_modeltuned_peers_forget(void)
{
    pthread_mutex_lock(&last.lock);
    free(last.names);
    free(last.places);
    last.names = NULL;
    last.places = NULL;
    last.size = last.capacity = 0;
    pthread_mutex_unlock(&last.lock);
}
