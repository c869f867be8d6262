/* cmd_models: `gpulint models`, the bundled architecture and GPU models. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/models_list.h"
#include "cli/opt.h"
#include "cli/target_opts.h"

int cmd_models(int argc, char **argv)
{
    const char *format = "text", *models_dir = NULL, *ids = NULL;
    bool help = false;
    const opt_spec specs[] = {
        {"format", 'f', OPT_STRING, &format, NULL, "text|json", "output format"},
        {"models", 0, OPT_STRING, &models_dir, NULL, "DIR", "models directory"},
        {"ids", 0, OPT_STRING, &ids, NULL, "arch|gpu",
         "only the names --arch or --gpu accept, one per line (for scripts and completion)"},
        {"help", 'h', OPT_FLAG, &help, NULL, NULL, "show this help"},
        {NULL, 0, OPT_END, NULL, NULL, NULL, NULL},
    };
    int done =
        opt_parse_command("models", specs, argc, argv,
                          "gpulint models [--format text|json] [--ids arch|gpu]", &help, &format);
    if (done >= 0)
        return done;
    if (ids && strcmp(ids, "arch") != 0 && strcmp(ids, "gpu") != 0)
        return diag_error(EXIT_USAGE, "--ids: expected arch or gpu, not '%s'", ids);
    model_db db;
    int rc = target_load_db(models_dir, &db);
    if (rc != EXIT_OK)
        return rc;
    if (ids && ids[0] == 'a') {
        for (size_t i = 0; i < db.n_archs; i++)
            puts(db.archs[i].name);
    } else if (ids) {
        for (size_t i = 0; i < db.n_products; i++)
            puts(db.products[i].id);
    } else if (strcmp(format, "json") == 0) {
        json_t *o = models_list_json(&db);
        char *s = json_dumps(o, JSON_INDENT(2));
        puts(s);
        free(s);
        json_decref(o);
    } else {
        models_list_text(stdout, &db);
    }
    model_db_free(&db);
    return EXIT_OK;
}
