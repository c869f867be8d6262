/* exercise: the bundled catalogue of textbook exercises (an INI file per exercise in exercises/):
 * each names its source chapter, asks its question in our words, gives the
 * gpulint command that answers it, the book's printed answer and, where
 * gpulint disagrees, why. The answers gpulint gave when the entry was
 * written live in exercises/answers/<id>.txt, for `gpulint exercises
 * --check`. */
#ifndef GPULINT_EXERCISE_H
#define GPULINT_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct exercise {
    char *id; /* "13.1" */
    char *title;
    char *source; /* which seed chapter, which exercise */
    char *question;
    char *command; /* gpulint's arguments, shell words (never run by a shell) */
    char *book;    /* the book's printed answer */
    char *differs; /* where the book is wrong, and why; NULL = it is not */
    /* where the book's machine or claim is simpler than real hardware (or
     * merely rounded); NULL = nowhere */
    char *simplifies;
    char *covers;  /* what the command does not answer yet; NULL = all of it */
    char *notes;   /* gpulint's remarks where the book agrees; NULL = none */
    char *erratum; /* the README's one line on what is wrong or simplified; NULL =
                      the first sentence of differs, else of simplifies */
    /* Phrases of gpulint's answer that the entry's words rely on, one per
     * line: --check fails when the answer (with its worked steps, where the
     * command has them) no longer holds one, so the reasoning a student
     * copies cannot drift from what gpulint shows. NULL = none. */
    char *evidence;
    char *path;
} exercise;

typedef struct exercise_set {
    exercise *items;
    size_t n;
    char *dir;
} exercise_set;

/* GPULINT_EXERCISES, else beside the models (MODELS/../exercises). */
const char *exercise_default_dir(const char *models_dir);

/* Loads every *.ini of dir, ordered by id ("13.2" before "13.10"). False
 * with one line in err naming the file and what is wrong. */
bool exercise_load(const char *dir, exercise_set *set, char *err, size_t errlen);
const exercise *exercise_find(const exercise_set *set, const char *id);
void exercise_set_free(exercise_set *set);

#endif
