/* html_report: a report as one self-contained HTML file: gpulint's web page
 * (built from web/, found beside this gpulint or where it is installed) with
 * the report's JSON inside, so that a CI artifact or a review attachment
 * opens in any browser, offline, with nothing installed. */
#ifndef GPULINT_HTML_REPORT_H
#define GPULINT_HTML_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* $GPULINT_WEB_PAGE, the build tree's page, then the installed one; NULL
 * when none exists (gpulint was built without -Dweb). */
const char *html_page_path(void);

/* Write the page with json (a whole report, kind "report" or "verify")
 * embedded. False with one line in err. */
bool html_report_write(FILE *out, const char *json, const char *kind, char *err, size_t n);

#endif
