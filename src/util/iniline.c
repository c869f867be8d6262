/* iniline: the first line inih would read in pieces (see iniline.h). */
#include "util/iniline.h"

int iniline_too_long(const char *text, size_t len)
{
    int line = 1;
    size_t col = 0;
    for (size_t i = 0; i < len && text[i]; i++) {
        if (text[i] == '\n') {
            line++;
            col = 0;
        } else if (++col > INILINE_MAX) {
            return line;
        }
    }
    return 0;
}
