/* html_report: the web page with a report inside. */
#include "report/html_report.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "util/fileio.h"
#include "util/fsutil.h"
#include "util/sbuf.h"

/* Where bundle.py leaves room for a report. */
#define SLOT "<script id=\"gpulint-embedded\" type=\"application/json\"></script>"

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

const char *html_page_path(void)
{
    static char buf[PATH_MAX + 64];
    const char *env = getenv("GPULINT_WEB_PAGE");
    if (env && *env)
        return is_file(env) ? env : NULL;
    char exe[PATH_MAX];
    if (fsutil_exe_dir(exe, sizeof exe)) {
        /* The build tree (build/src/gpulint, build/src/web/gpulint.html),
         * then an install (bin/, share/gpulint/web/). */
        snprintf(buf, sizeof buf, "%s/web/gpulint.html", exe);
        if (is_file(buf))
            return buf;
        snprintf(buf, sizeof buf, "%s/../share/gpulint/web/gpulint.html", exe);
        if (is_file(buf))
            return buf;
    }
    return is_file(GPULINT_INSTALLED_WEB_PAGE) ? GPULINT_INSTALLED_WEB_PAGE : NULL;
}

bool html_report_write(FILE *out, const char *json, const char *kind, char *err, size_t n)
{
    const char *path = html_page_path();
    if (!path) {
        snprintf(err, n,
                 "--format html needs gpulint's web page (gpulint.html), which this gpulint was "
                 "built without (meson -Dweb=enabled needs clang-22, lld-22, wasi-libc and "
                 "libclang-rt-22-dev-wasm32)");
        return false;
    }
    char *page;
    size_t len;
    fileio_status st = fileio_read(path, 64u << 20, &page, &len);
    if (st != FILEIO_OK) {
        snprintf(err, n, "%s: %s", path, fileio_status_text(st));
        return false;
    }
    char *slot = strstr(page, SLOT);
    if (!slot) {
        snprintf(err, n, "%s: not gpulint's web page (no report slot)", path);
        free(page);
        return false;
    }
    sbuf b;
    sbuf_init(&b);
    sbuf_addn(&b, page, (size_t)(slot - page));
    sbuf_addf(&b, "<script id=\"gpulint-embedded\" type=\"application/json\" data-kind=\"%s\">",
              kind);
    /* In JSON '<', '>' and '&' occur only inside strings, where \u escapes
     * mean the same; escaped, no text of the report can close the script. */
    for (const char *p = json; *p; p++) {
        if (*p == '<')
            sbuf_add(&b, "\\u003c");
        else if (*p == '>')
            sbuf_add(&b, "\\u003e");
        else if (*p == '&')
            sbuf_add(&b, "\\u0026");
        else
            sbuf_addc(&b, *p);
    }
    sbuf_add(&b, "</script>");
    sbuf_add(&b, slot + strlen(SLOT));
    free(page);
    bool ok = fputs(sbuf_str(&b), out) != EOF && fflush(out) == 0;
    if (!ok)
        snprintf(err, n, "cannot write the HTML report");
    sbuf_free(&b);
    return ok;
}
