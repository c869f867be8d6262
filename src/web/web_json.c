/* web_json: JSON text into an sbuf. */
#include "web/web_json.h"

#include <math.h>

void wj_str(sbuf *o, const char *s)
{
    sbuf_addc(o, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            sbuf_addc(o, '\\');
            sbuf_addc(o, (char)c);
        } else if (c == '\n') {
            sbuf_add(o, "\\n");
        } else if (c < 0x20) {
            sbuf_addf(o, "\\u%04x", c);
        } else {
            sbuf_addc(o, (char)c);
        }
    }
    sbuf_addc(o, '"');
}

void wj_key(sbuf *o, const char *key, int *count)
{
    if ((*count)++)
        sbuf_addc(o, ',');
    wj_str(o, key);
    sbuf_addc(o, ':');
}

void wj_num(sbuf *o, double v)
{
    if (!isfinite(v))
        sbuf_add(o, "null");
    else
        sbuf_addf(o, "%.17g", v);
}

void wj_int(sbuf *o, int64_t v)
{
    sbuf_addf(o, "%lld", (long long)v);
}

void wj_dims(sbuf *o, const int64_t d[3])
{
    sbuf_addf(o, "[%lld,%lld,%lld]", (long long)d[0], (long long)d[1], (long long)d[2]);
}
