/* web_json: JSON text for the web entry points, written straight into an
 * sbuf (the WebAssembly build has no jansson; only writing is needed, the
 * page's JSON.parse reads it). */
#ifndef GPULINT_WEB_JSON_H
#define GPULINT_WEB_JSON_H

#include <stdint.h>

#include "util/sbuf.h"

/* A JSON string with every control character escaped. */
void wj_str(sbuf *o, const char *s);
/* "key": (with the comma before it unless first) */
void wj_key(sbuf *o, const char *key, int *count);
/* A double that reads back to the same value (%.17g); null for NaN/inf. */
void wj_num(sbuf *o, double v);
void wj_int(sbuf *o, int64_t v);
/* [x,y,z] */
void wj_dims(sbuf *o, const int64_t d[3]);

#endif
