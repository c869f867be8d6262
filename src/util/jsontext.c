/* jsontext: UTF-8 repair for JSON strings, percent-encoding for URIs. */
#include "util/jsontext.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "util/sbuf.h"

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs,
 * no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

json_t *json_text(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    sbuf b;
    sbuf_init(&b);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_len(p);
        if (n) {
            sbuf_addn(&b, (const char *)p, n);
            p += n;
        } else {
            sbuf_add(&b, "\xEF\xBF\xBD"); /* U+FFFD */
            p++;
        }
    }
    j = json_string(b.data ? b.data : "");
    sbuf_free(&b);
    return j;
}

char *json_uri_path(const char *path)
{
    sbuf b;
    sbuf_init(&b);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                     (*p >= '0' && *p <= '9') || strchr("-._~/", *p);
        if (plain)
            sbuf_addc(&b, (char)*p);
        else
            sbuf_addf(&b, "%%%02X", *p);
    }
    if (!b.data)
        sbuf_add(&b, "");
    return sbuf_take(&b);
}

json_t *json_bytes(const char *s)
{
    if (!s)
        return json_null();
    json_t *j = json_string(s);
    if (j)
        return j;
    sbuf b;
    sbuf_init(&b);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        sbuf_addf(&b, "%02x", *p);
    j = json_pack("{s:s}", "hex", b.data);
    sbuf_free(&b);
    return j;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

char *json_bytes_value(const json_t *j)
{
    if (json_is_string(j))
        return xstrdup(json_string_value(j));
    const char *hex = json_string_value(json_object_get(j, "hex"));
    if (!hex || strlen(hex) % 2)
        return NULL;
    sbuf b;
    sbuf_init(&b);
    for (const char *p = hex; *p; p += 2) {
        int hi = hex_digit(p[0]), lo = hex_digit(p[1]);
        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
            sbuf_free(&b);
            return NULL;
        }
        sbuf_addc(&b, (char)(hi * 16 + lo));
    }
    if (!b.data)
        sbuf_add(&b, "");
    return sbuf_take(&b);
}
