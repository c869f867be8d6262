/* gen_exercises: write the exercise catalogue as C (web_exercises.h) for the
 * web page. Usage: gen_exercises EXERCISES_DIR OUT.c. Read by the command
 * line's own reader (input/exercise.c), so the page lists the same entries
 * in the same order with the same words. */
#include <stdio.h>
#include <stdlib.h>

#include "input/exercise.h"
#include "util/sbuf.h"

static void c_string(sbuf *o, const char *s)
{
    if (!s) {
        sbuf_add(o, "NULL");
        return;
    }
    sbuf_addc(o, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sbuf_addf(o, "\\%c", c);
        else if (c == '\n')
            sbuf_add(o, "\\n\"\n        \"");
        else if (c < 0x20 || c == 0x7f)
            sbuf_addf(o, "\\%03o", c);
        else
            sbuf_addc(o, (char)c);
    }
    sbuf_addc(o, '"');
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gen_exercises EXERCISES_DIR OUT.c\n");
        return 2;
    }
    exercise_set set;
    char err[512];
    if (!exercise_load(argv[1], &set, err, sizeof err)) {
        fprintf(stderr, "gen_exercises: %s\n", err);
        return 1;
    }
    sbuf o;
    sbuf_init(&o);
    sbuf_add(&o, "/* Written by src/web/gen_exercises.c from exercises/; do not edit. */\n"
                 "#include \"web/web_exercises.h\"\n\n"
                 "const web_exercise web_exercises[] = {\n");
    for (size_t i = 0; i < set.n; i++) {
        const exercise *e = &set.items[i];
        const char *fields[] = {e->id,      e->title, e->source,  e->question,
                                e->command, e->book,  e->differs, e->simplifies,
                                e->covers,  e->notes, e->erratum};
        sbuf_add(&o, "    {\n");
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
            sbuf_add(&o, "        ");
            c_string(&o, fields[f]);
            sbuf_add(&o, ",\n");
        }
        sbuf_add(&o, "    },\n");
    }
    sbuf_addf(&o, "};\nconst size_t web_n_exercises = %zu;\n", set.n);
    exercise_set_free(&set);
    FILE *f = fopen(argv[2], "w");
    int status = !f || fputs(sbuf_str(&o), f) == EOF;
    if (f && fclose(f) != 0)
        status = 1;
    if (status)
        fprintf(stderr, "gen_exercises: cannot write %s\n", argv[2]);
    sbuf_free(&o);
    return status;
}
