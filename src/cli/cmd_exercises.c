/* cmd_exercises: `gpulint exercises`, the textbook catalogue: list it, show
 * one exercise with gpulint's answer (its command run by this gpulint, no
 * shell) beside the book's, or check that every answer is still the one
 * recorded in exercises/answers/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "input/compdb.h"
#include "input/exercise.h"
#include "model/model_load.h"
#include "util/fileio.h"
#include "util/sbuf.h"
#include "util/spawn.h"

extern char **environ;

#define ANSWER_MAX (4u << 20)

/* Which command answers which kind of textbook question (the README has
 * the same table). */
#define QUESTIONS                                                                                  \
    "question                                          command\n"                                  \
    "occupancy, blocks/warps per SM, what limits it    occupancy --threads N --regs R --smem B "   \
    "--explain\n"                                                                                  \
    "warps needed to hide a latency (Little's law)     occupancy --latency C --throughput N\n"     \
    "how threads fall into warps, idle lanes           warps --block XxY --grid N --explain\n"     \
    "bank conflicts of a shared-memory access          bank --stride N | --decl D --access E "     \
    "--explain\n"                                                                                  \
    "sectors per request, coalescing                   coalesce --stride N [--offset K] | "        \
    "--access E --explain\n"                                                                       \
    "warps entering/diverging, SIMD efficiency         divergence --cond E --block B --grid G\n"   \
    "loop iterations with and without divergence       divergence --trips E --block B --grid G\n"  \
    "grid size, idle threads, waves, block shape       launch --problem WxH --block B,... "        \
    "--explain\n"                                                                                  \
    "peak rates, ridge point, bound of a kernel        roofline --gpu ID --precision P --ai X "    \
    "--explain\n"                                                                                  \
    "GEMM intensity with T x T tiles                   roofline --gemm M,N,K --tile T\n"           \
    "register tiling: FMAs per shared-memory load      roofline --gemm M,N,K --tile T "            \
    "--thread-tile TMxTN\n"                                                                        \
    "Tensor Core GEMM: fragments, bound, measured gap  roofline --gemm M,N,K --mma SHAPE --gpu "   \
    "ID "                                                                                          \
    "--precision P\n"                                                                              \
    "speedup from mixed precision (Amdahl)             roofline --mix F@R,... [--target-speedup "  \
    "S]\n"                                                                                         \
    "a kernel's registers, occupancy, conflicts        gpulint FILE.cu [--block B]\n"

/* The commands whose output grows worked steps with --explain. */
static bool takes_explain(const char *command)
{
    static const char *const with[] = {"occupancy ", "bank ",  "roofline ", "divergence ",
                                       "coalesce ",  "warps ", "launch "};
    for (size_t i = 0; i < sizeof with / sizeof with[0]; i++)
        if (strncmp(command, with[i], strlen(with[i])) == 0)
            return true;
    return false;
}

/* Whether --explain adds steps the plain answer does not hold. */
static bool has_explained_answer(const exercise *e)
{
    return takes_explain(e->command) && !strstr(e->command, "--explain");
}

/* Runs this gpulint with the exercise's words: stdout and the exit status,
 * as "exit: N\n" + stdout, the form of the recorded answers. Colour off and
 * the local GPU ignored, so the answer is the same on every machine. */
static char *answer(const exercise *e, const char *models, bool explain, char *err, size_t errlen)
{
    char **words;
    int n;
    if (!compdb_split(e->command, &words, &n) || n == 0) {
        snprintf(err, errlen, "%s: command: unbalanced quotes or empty", e->path);
        return NULL;
    }
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        compdb_argv_free(words);
        snprintf(err, errlen, "cannot find this gpulint (/proc/self/exe)");
        return NULL;
    }
    exe[len] = '\0';
    const char **argv = xcalloc((size_t)n + 3, sizeof *argv);
    argv[0] = exe;
    for (int i = 0; i < n; i++)
        argv[i + 1] = words[i];
    if (explain && has_explained_answer(e))
        argv[n + 1] = "--explain";
    size_t n_env = 0;
    while (environ[n_env])
        n_env++;
    char **envp = xcalloc(n_env + 4, sizeof *envp);
    size_t k = 0;
    for (size_t i = 0; i < n_env; i++)
        if (strncmp(environ[i], "NO_COLOR=", 9) && strncmp(environ[i], "GPULINT_NO_DEVICE=", 18) &&
            strncmp(environ[i], "GPULINT_MODELS=", 15))
            envp[k++] = environ[i];
    sbuf m;
    sbuf_init(&m);
    sbuf_addf(&m, "GPULINT_MODELS=%s", models);
    envp[k++] = "NO_COLOR=1";
    envp[k++] = "GPULINT_NO_DEVICE=1";
    envp[k++] = (char *)sbuf_str(&m);
    spawn_result res;
    char *out = NULL;
    if (spawn_run(argv, envp, &res, err, errlen)) {
        sbuf b;
        sbuf_init(&b);
        sbuf_addf(&b, "exit: %d\n%s", res.status, res.out ? res.out : "");
        if (res.err && res.err[0])
            sbuf_addf(&b, "stderr:\n%s", res.err);
        out = sbuf_take(&b);
        spawn_result_free(&res);
    }
    sbuf_free(&m);
    free(envp);
    free(argv);
    compdb_argv_free(words);
    return out;
}

static void indented(sbuf *b, const char *text)
{
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        sbuf_addf(b, "  %.*s\n", (int)n, p);
        p += n + (nl != NULL);
    }
}

static int show(const exercise *e, const char *models, bool explain)
{
    char err[512];
    char *got = answer(e, models, explain, err, sizeof err);
    if (!got)
        return diag_error(EXIT_TOOL, "%s", err);
    sbuf b;
    sbuf_init(&b);
    sbuf_addf(&b, "exercise %s: %s\nsource: %s\n\nquestion:\n", e->id, e->title, e->source);
    indented(&b, e->question);
    sbuf_addf(&b, "\ncommand:\n  gpulint %s%s\n\ngpulint's answer:\n", e->command,
              explain && has_explained_answer(e) ? " --explain" : "");
    /* The recorded form starts with the exit status; a reader wants the text. */
    const char *text = strchr(got, '\n') ? strchr(got, '\n') + 1 : got;
    indented(&b, text);
    sbuf_add(&b, "\nthe book's answer:\n");
    indented(&b, e->book);
    if (e->differs) {
        sbuf_add(&b, "\nwhere the book is wrong:\n");
        indented(&b, e->differs);
    } else if (!e->simplifies)
        sbuf_add(&b, "\ngpulint and the book agree.\n");
    if (e->simplifies) {
        sbuf_add(&b, "\nwhere the book simplifies real hardware:\n");
        indented(&b, e->simplifies);
    }
    if (e->notes) {
        sbuf_add(&b, "\nnotes:\n");
        indented(&b, e->notes);
    }
    if (e->covers) {
        sbuf_add(&b, "\nnot answered by the command yet:\n");
        indented(&b, e->covers);
    }
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
    free(got);
    return EXIT_OK;
}

/* answers/<id>.txt, or answers/<id>.explain.txt for the worked steps. */
static char *answer_path(const exercise_set *set, const exercise *e, bool explain)
{
    sbuf p;
    sbuf_init(&p);
    sbuf_addf(&p, "%s/answers/%s%s.txt", set->dir, e->id, explain ? ".explain" : "");
    return sbuf_take(&p);
}

/* The first line where two texts part, for the report of a changed answer. */
static void first_difference(const char *a, const char *b, char *out, size_t n)
{
    int line = 1;
    while (*a && *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la) != 0) {
            snprintf(out, n, "line %d: recorded \"%.*s\", now \"%.*s\"", line,
                     (int)(la > 120 ? 120 : la), a, (int)(lb > 120 ? 120 : lb), b);
            return;
        }
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
        line++;
    }
    snprintf(out, n, "line %d: one answer ends before the other", line);
}

/* Each line of the entry's evidence must be in one of its answers. */
static int check_evidence(const exercise *e, const char *plain, const char *explained,
                          size_t *phrases)
{
    int missing = 0;
    for (const char *p = e->evidence; p && *p;) {
        size_t n = strcspn(p, "\n");
        char *phrase = xstrndup(p, n);
        *phrases += n > 0;
        if (n && !strstr(plain, phrase) && !(explained && strstr(explained, phrase))) {
            printf("FAIL %s: the entry relies on \"%s\", which gpulint's answer no longer "
                   "says\n",
                   e->id, phrase);
            missing++;
        }
        free(phrase);
        p += n + (p[n] == '\n');
    }
    return missing;
}

/* One answer against its recording (or recorded, with write); 1 when it
 * changed, -1 when it could not be written. */
static int check_answer(const exercise_set *set, const exercise *e, bool explain, const char *got,
                        bool write)
{
    char *path = answer_path(set, e, explain);
    int changed = 0;
    if (write) {
        FILE *f = fopen(path, "w");
        if (!f || fputs(got, f) < 0 || fclose(f) != 0) {
            diag_error(EXIT_INPUT, "%s: cannot be written", path);
            changed = -1;
        } else
            printf("wrote %s\n", path);
    } else {
        char *want = NULL;
        size_t len;
        fileio_status st = fileio_read(path, ANSWER_MAX, &want, &len);
        if (st != FILEIO_OK) {
            printf("FAIL %s: %s: %s\n", e->id, path, fileio_status_text(st));
            changed = 1;
        } else if (strcmp(want, got) != 0) {
            char where[400];
            first_difference(want, got, where, sizeof where);
            printf("FAIL %s%s: the answer changed (%s)\n", e->id, explain ? " --explain" : "",
                   where);
            changed = 1;
        } else
            printf("ok   %s%s %s\n", e->id, explain ? " --explain" : "", e->title);
        free(want);
    }
    free(path);
    return changed;
}

static int check(const exercise_set *set, const char *models, bool write)
{
    int changed = 0, unsupported = 0;
    size_t answers = 0, phrases = 0;
    for (size_t i = 0; i < set->n; i++) {
        const exercise *e = &set->items[i];
        char *got[2] = {NULL, NULL};
        for (int explain = 0; explain < 2; explain++) {
            if (explain && !has_explained_answer(e))
                continue;
            char err[512];
            got[explain] = answer(e, models, explain, err, sizeof err);
            if (!got[explain]) {
                free(got[0]);
                return diag_error(EXIT_TOOL, "%s", err);
            }
            answers++;
            int c = check_answer(set, e, explain, got[explain], write);
            if (c < 0) {
                free(got[0]);
                free(got[1]);
                return EXIT_INPUT;
            }
            changed += c;
        }
        unsupported += check_evidence(e, got[0], got[1], &phrases);
        free(got[0]);
        free(got[1]);
    }
    if (!write)
        printf("%zu exercises, %zu answers with the worked steps: %zu as recorded, %d "
               "changed; %zu phrases their words rely on, %d no longer in the answers\n",
               set->n, answers, answers - (size_t)changed, changed, phrases, unsupported);
    return changed || unsupported ? EXIT_CHECK_FAILED : EXIT_OK;
}

/* The first sentence of a text, its lines joined. */
static void first_sentence(sbuf *b, const char *text)
{
    for (const char *p = text; *p; p++) {
        sbuf_addc(b, *p == '\n' ? ' ' : *p);
        if (*p == '.' &&
            (p[1] == '\0' || ((p[1] == ' ' || p[1] == '\n') && p[2] >= 'A' && p[2] <= 'Z')))
            return;
    }
}

/* Where the books are wrong or simplify, as a Markdown list: the README's
 * list is this output (a test compares them). */
static void errata(const exercise_set *set)
{
    sbuf b;
    sbuf_init(&b);
    for (size_t i = 0; i < set->n; i++) {
        const exercise *e = &set->items[i];
        if (!e->differs && !e->simplifies)
            continue;
        sbuf_addf(&b, "- **%s** %s (%s): ", e->id, e->title,
                  e->differs ? (e->simplifies ? "wrong, simplifies" : "wrong") : "simplifies");
        if (e->erratum)
            first_sentence(&b, e->erratum);
        else
            first_sentence(&b, e->differs ? e->differs : e->simplifies);
        sbuf_addc(&b, '\n');
    }
    fputs(sbuf_str(&b), stdout);
    sbuf_free(&b);
}

static void list(const exercise_set *set)
{
    printf("%-7s %-62s %s\n", "id", "exercise", "book");
    for (size_t i = 0; i < set->n; i++) {
        const exercise *e = &set->items[i];
        /* A title too long for its column ends in "..." rather than mid-word. */
        char title[63];
        if (strlen(e->title) > 62)
            snprintf(title, sizeof title, "%.59s...", e->title);
        else
            snprintf(title, sizeof title, "%s", e->title);
        const char *verdict = e->differs      ? (e->simplifies ? "wrong, simplifies" : "wrong")
                              : e->simplifies ? "simplifies"
                                              : "agrees";
        printf("%-7s %-62s %s%s\n", e->id, title, verdict, e->covers ? " (partly answered)" : "");
    }
    printf("\n'gpulint exercises ID [--explain]' shows one; '--check' re-runs them all.\n");
}

int cmd_exercises(int argc, char **argv)
{
    bool explain = false, do_check = false, write = false, help = false, do_errata = false;
    const char *models = NULL;
    const opt_spec specs[] = {
        {"explain", 'e', OPT_FLAG, &explain, NULL, NULL, "gpulint's answer with its worked steps"},
        {"check", 0, OPT_FLAG, &do_check, NULL, NULL,
         "re-run every exercise; exit 1 when an answer differs from the recorded one"},
        {"write-answers", 0, OPT_FLAG, &write, NULL, NULL,
         "record today's answers (for a new or corrected exercise)"},
        {"errata", 0, OPT_FLAG, &do_errata, NULL, NULL,
         "where the books are wrong or simplify, one Markdown line each"},
        {"models", 0, OPT_STRING, &models, NULL, "DIR", "models directory"},
        {"help", 'h', OPT_FLAG, &help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    opt_result res;
    if (!opt_parse(specs, argc, argv, &res)) {
        opt_free(&res);
        return diag_error(EXIT_USAGE, "%s", res.error);
    }
    if (help) {
        opt_free(&res);
        opt_usage("gpulint exercises [ID [--explain]] [--check] [--errata]\n\nThe textbook "
                  "exercises gpulint answers: each with its question, the command,\ngpulint's "
                  "answer, the book's, and where they differ, why.\n\n" QUESTIONS,
                  specs);
        return EXIT_OK;
    }
    int rc = EXIT_OK;
    if (res.n_passthrough || res.n_positional > 1)
        rc = diag_error(EXIT_USAGE, "exercises: give at most one exercise id");
    else if ((do_check || write || do_errata) && res.n_positional)
        rc = diag_error(EXIT_USAGE,
                        "--check, --write-answers and --errata cover the whole catalogue");
    const char *models_dir = models ? models : model_default_dir();
    exercise_set set;
    char err[1024];
    if (rc == EXIT_OK && !exercise_load(exercise_default_dir(models_dir), &set, err, sizeof err))
        rc = diag_error(EXIT_INPUT, "%s", err);
    else if (rc == EXIT_OK) {
        if (do_check || write)
            rc = check(&set, models_dir, write);
        else if (do_errata)
            errata(&set);
        else if (res.n_positional) {
            const exercise *e = exercise_find(&set, res.positional[0]);
            rc = e ? show(e, models_dir, explain)
                   : diag_error(EXIT_USAGE, "no exercise '%s' ('gpulint exercises' lists them)",
                                res.positional[0]);
        } else
            list(&set);
        exercise_set_free(&set);
    }
    opt_free(&res);
    return rc;
}
