/*
 * The component's messages: the topics of help-coll-modeltuned.txt, printed by the rank that
 * reports a problem, and where they are found.
 */
#include "ompi_config.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_modeltuned.h"
#include "opal/util/show_help.h"

#define HELP_FILE "help-coll-modeltuned.txt"

/* Not opal_show_help, which under Open MPI 4.1's mpirun relays each rank's text through PMIx_Log:
 * the daemon forwards it from the PMIx thread without a thread shift (pmix_server_log_fn), and
 * messages sent by several ranks at once arrive corrupted or not at all ("ORTE_ERROR_LOG ...
 * show_help.c"; Open MPI's own too). The rank's stderr is reliable, so one rank prints. */
void mca_coll_modeltuned_show_help(bool here, const char *topic, ...)
{
    va_list ap;
    if (!here)
        return;
    va_start(ap, topic);
    char *text = opal_show_help_vstring(HELP_FILE, topic, true, ap);
    va_end(ap);
    if (NULL != text)
        fputs(text, stderr); /* not opal_output(0): it prefixes the first line */
    free(text);
}

/* Where opal_show_help finds HELP_FILE (after Open MPI's own help directory): next to this shared
 * object as it was loaded (the build tree's mca-components/ links it there), then where make
 * install puts it. */
void mca_coll_modeltuned_help_dirs_add(void)
{
    Dl_info self;
    char dir[4096], *slash;
    if (0 != dladdr((void *) &mca_coll_modeltuned_component, &self) && NULL != self.dli_fname &&
        (size_t) snprintf(dir, sizeof dir, "%s", self.dli_fname) < sizeof dir &&
        NULL != (slash = strrchr(dir, '/'))) {
        *slash = '\0';
        opal_show_help_add_dir(dir);
    }
    opal_show_help_add_dir(MODELTUNED_PKGDATADIR);
}
