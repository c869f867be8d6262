/* web_exercises: the exercise catalogue (an INI file per exercise in exercises/) compiled into the
 * program for the web page, as `gpulint exercises` reads it. Written at
 * build time by gen_exercises.c through input/exercise.c. */
#ifndef GPULINT_WEB_EXERCISES_H
#define GPULINT_WEB_EXERCISES_H

#include <stddef.h>

typedef struct web_exercise {
    const char *id, *title, *source, *question, *command, *book;
    const char *differs, *simplifies, *covers, *notes, *erratum; /* NULL = none */
} web_exercise;

extern const web_exercise web_exercises[];
extern const size_t web_n_exercises;

#endif
