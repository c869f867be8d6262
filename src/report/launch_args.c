/* launch_args: a launch's kernel arguments as the reports write them. */
#include "report/launch_args.h"

#include <stdio.h>
#include <string.h>

void launch_arg_text(const json_t *arg, char *buf, size_t size)
{
    const json_t *v = json_object_get(arg, "value");
    const char *e = json_string_value(json_object_get(arg, "expr"));
    if (json_is_integer(v))
        snprintf(buf, size, "%lld", (long long)json_integer_value(v));
    else
        snprintf(buf, size, "%s", e ? e : "?");
}

size_t launch_args_join(const json_t *args, launch_arg_pick pick, const void *ctx, char *buf,
                        size_t size)
{
    size_t used = 0, i;
    const json_t *arg;
    buf[0] = '\0';
    json_array_foreach(args, i, arg)
    {
        if ((pick && !pick(arg, i, ctx)) || used + 8 >= size)
            continue;
        const char *param = json_string_value(json_object_get(arg, "param"));
        char value[160];
        launch_arg_text(arg, value, sizeof value);
        used += (size_t)snprintf(buf + used, size - used, "%s%s=%s", used ? ", " : "",
                                 param ? param : "?", value);
    }
    if (used >= size && size >= 4) {
        memcpy(buf + size - 4, "...", 4);
        used = size - 1;
    }
    return used;
}
