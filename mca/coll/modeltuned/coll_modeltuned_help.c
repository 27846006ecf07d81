/*
 * The component's messages: the topics of help-coll-modeltuned.txt, printed by the rank that
 * reports a problem, and where they are found.
 *
 * The file is read here, not by opal_show_help: Open MPI 6.0 compiles its own help texts into its
 * library and no longer reads files from the directories components add. The format is Open
 * MPI's: "#" comment lines, "[topic]" headers, a topic's text printf's format, framed by dashed
 * lines as opal_show_help frames it.
 */
#include "ompi_config.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_modeltuned.h"
#include "opal/util/printf.h"

#define HELP_FILE "help-coll-modeltuned.txt"
#define DASH_LINE "--------------------------------------------------------------------------\n"

/* Where HELP_FILE is: next to this shared object as it was loaded (the build tree's
 * mca-components/ links it there), then where make install puts it. */
static char help_dirs[2][4096];

void mca_coll_modeltuned_help_dirs_add(void)
{
    Dl_info self;
    char *slash;
    help_dirs[0][0] = '\0';
    if (0 != dladdr((void *) &mca_coll_modeltuned_component, &self) && NULL != self.dli_fname &&
        (size_t) snprintf(help_dirs[0], sizeof help_dirs[0], "%s", self.dli_fname) <
            sizeof help_dirs[0] &&
        NULL != (slash = strrchr(help_dirs[0], '/')))
        *slash = '\0';
    else
        help_dirs[0][0] = '\0';
    snprintf(help_dirs[1], sizeof help_dirs[1], "%s", MODELTUNED_PKGDATADIR);
}

/* The text of `topic` in the first HELP_FILE found (malloc'd), or NULL. */
static char *topic_text(const char *topic)
{
    char path[4200], line[1024], header[128];
    snprintf(header, sizeof header, "[%s]", topic);
    for (int d = 0; d < 2; ++d) {
        FILE *f;
        if ('\0' == help_dirs[d][0] ||
            (size_t) snprintf(path, sizeof path, "%s/%s", help_dirs[d], HELP_FILE) >= sizeof path ||
            NULL == (f = fopen(path, "r")))
            continue;
        char *text = NULL;
        size_t length = 0;
        bool inside = false;
        while (NULL != fgets(line, sizeof line, f)) {
            if ('[' == line[0]) {
                if (inside)
                    break;
                inside = 0 == strncmp(line, header, strlen(header)) && '\n' == line[strlen(header)];
                continue;
            }
            if (!inside || '#' == line[0])
                continue;
            char *grown = realloc(text, length + strlen(line) + 1);
            if (NULL == grown)
                break;
            text = grown;
            strcpy(text + length, line);
            length += strlen(line);
        }
        fclose(f);
        while (length > 0 && '\n' == text[length - 1] && (length < 2 || '\n' == text[length - 2]))
            text[--length] = '\0'; /* the blank lines before the next topic */
        if (NULL != text)
            return text;
    }
    return NULL;
}

/* Not opal_show_help, which under Open MPI 4.1's mpirun relays each rank's text through PMIx_Log:
 * the daemon forwards it from the PMIx thread without a thread shift (pmix_server_log_fn), and
 * messages sent by several ranks at once arrive corrupted or not at all ("ORTE_ERROR_LOG ...
 * show_help.c"; Open MPI's own too). The rank's stderr is reliable, so one rank prints. */
void mca_coll_modeltuned_show_help(bool here, const char *topic, ...)
{
    if (!here)
        return;
    char *format = topic_text(topic), *text = NULL;
    if (NULL == format) {
        fprintf(stderr, "coll:modeltuned: message '%s' not found in %s (in %s or %s)\n", topic,
                HELP_FILE, help_dirs[0], help_dirs[1]);
        return;
    }
    va_list ap;
    va_start(ap, topic);
    const int rc = opal_vasprintf(&text, format, ap);
    va_end(ap);
    if (rc >= 0)
        fprintf(stderr, DASH_LINE "%s" DASH_LINE,
                text); /* not opal_output(0): it prefixes the first line */
    free(text);
    free(format);
}
