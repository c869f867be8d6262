/* chart: cairo drawing of the roofline and occupancy charts. Layout works
 * in logical pixels; PNGs are rendered at twice that so they stay sharp on
 * high-density screens, SVGs are resolution-free. */
#include "report/chart.h"

#include <cairo-svg.h>
#include <cairo.h>
#if GPULINT_CHART_FONTCONFIG
#include <fontconfig/fontconfig.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/occupancy/occ_curves.h"
#include "analysis/timing/roofline.h"
#include "util/sbuf.h"
#include "util/units.h"

#define PNG_SCALE 2.0
#define FONT "DejaVu Sans"

typedef struct rgb {
    double r, g, b;
} rgb;

/* Okabe-Ito colours: distinguishable with the common colour-vision
 * deficiencies. */
static const rgb palette[] = {
    {0.835, 0.369, 0.000}, /* vermillion */
    {0.000, 0.447, 0.698}, /* blue */
    {0.000, 0.620, 0.451}, /* bluish green */
    {0.800, 0.475, 0.655}, /* reddish purple */
    {0.902, 0.624, 0.000}, /* orange */
    {0.337, 0.706, 0.914}, /* sky blue */
};
#define N_PALETTE (sizeof palette / sizeof palette[0])
/* Compute roofs after the first, and memory roofs after the first. */
static const rgb compute_palette[] = {
    {0.835, 0.369, 0.000}, {0.000, 0.620, 0.451}, {0.800, 0.475, 0.655},
    {0.902, 0.624, 0.000}, {0.550, 0.350, 0.200}, {0.400, 0.400, 0.400},
};
#define N_COMPUTE_PALETTE (sizeof compute_palette / sizeof compute_palette[0])
static const rgb memory_palette[] = {
    {0.000, 0.447, 0.698}, {0.337, 0.706, 0.914}, {0.150, 0.250, 0.550}};
#define N_MEMORY_PALETTE (sizeof memory_palette / sizeof memory_palette[0])
static const rgb ink = {0.13, 0.13, 0.13};
static const rgb grey = {0.42, 0.42, 0.42};

typedef struct box {
    double x0, y0, x1, y1;
} box;

typedef struct canvas {
    cairo_surface_t *surface;
    cairo_t *cr;
    chart_format format;
    const char *path;
} canvas;

bool chart_available(void)
{
    return true;
}

bool chart_backend_version(char *buf, size_t n)
{
    snprintf(buf, n, "%s", cairo_version_string());
    return true;
}

bool chart_format_from_path(const char *path, chart_format *out)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/'))
        return false;
    if (strcasecmp(dot, ".svg") == 0)
        *out = CHART_SVG;
    else if (strcasecmp(dot, ".png") == 0)
        *out = CHART_PNG;
    else
        return false;
    return true;
}

static bool canvas_open(canvas *c, const char *path, double w, double h, char *err, size_t n)
{
    memset(c, 0, sizeof *c);
    if (!chart_format_from_path(path, &c->format)) {
        snprintf(err, n, "cannot tell the chart format of '%s': use a .svg or .png file name",
                 path ? path : "");
        return false;
    }
    c->path = path;
    if (c->format == CHART_SVG)
        c->surface = cairo_svg_surface_create(path, w, h);
    else
        c->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(w * PNG_SCALE),
                                                (int)(h * PNG_SCALE));
    if (cairo_surface_status(c->surface) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, n, "cannot create '%s': %s", path,
                 cairo_status_to_string(cairo_surface_status(c->surface)));
        cairo_surface_destroy(c->surface);
        return false;
    }
    c->cr = cairo_create(c->surface);
    if (c->format == CHART_PNG)
        cairo_scale(c->cr, PNG_SCALE, PNG_SCALE);
    cairo_set_source_rgb(c->cr, 1, 1, 1);
    cairo_paint(c->cr);
    cairo_set_line_join(c->cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(c->cr, CAIRO_LINE_CAP_BUTT);
    return true;
}

static bool canvas_close(canvas *c, char *err, size_t n)
{
    cairo_status_t st = cairo_status(c->cr);
    cairo_destroy(c->cr);
    if (st == CAIRO_STATUS_SUCCESS && c->format == CHART_PNG)
        st = cairo_surface_write_to_png(c->surface, c->path);
    cairo_surface_finish(c->surface);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(c->surface);
    cairo_surface_destroy(c->surface);
    /* cairo keeps selected fonts in static caches and fontconfig its parsed
     * configuration; both otherwise show up as leaks at exit under ASan and
     * valgrind (the CI runs both). Nothing else in gpulint holds cairo or
     * fontconfig objects, so dropping them here is safe; the next chart
     * loads them again. */
    cairo_debug_reset_static_data();
#if GPULINT_CHART_FONTCONFIG
    FcFini();
#endif
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, n, "cannot write '%s': %s", c->path, cairo_status_to_string(st));
        return false;
    }
    return true;
}

static void set_rgb(cairo_t *cr, rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

static void font(cairo_t *cr, double size, bool bold)
{
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

/* Box of a text drawn with its anchor at (x, y): ax/ay are 0 (left/top),
 * 0.5 (centre) or 1 (right/bottom) of the text's ink-independent box. */
static box text_box(cairo_t *cr, const char *s, double x, double y, double ax, double ay)
{
    cairo_text_extents_t te;
    cairo_font_extents_t fe;
    cairo_text_extents(cr, s, &te);
    cairo_font_extents(cr, &fe);
    double w = te.x_advance, h = fe.ascent + fe.descent;
    double x0 = x - ax * w, y0 = y - ay * h;
    return (box){x0, y0, x0 + w, y0 + h};
}

static box text(cairo_t *cr, const char *s, double x, double y, double ax, double ay)
{
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    box b = text_box(cr, s, x, y, ax, ay);
    cairo_move_to(cr, b.x0, b.y0 + fe.ascent);
    cairo_show_text(cr, s);
    return b;
}

/* Text rotated by angle (radians) about its anchor point. */
static void text_rotated(cairo_t *cr, const char *s, double x, double y, double angle, double ax,
                         double ay)
{
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_rotate(cr, angle);
    text(cr, s, 0, 0, ax, ay);
    cairo_restore(cr);
}

static bool overlaps(box a, box b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

static bool inside(box a, box area)
{
    return a.x0 >= area.x0 && a.x1 <= area.x1 && a.y0 >= area.y0 && a.y1 <= area.y1;
}

static box grow(box b, double m)
{
    return (box){b.x0 - m, b.y0 - m, b.x1 + m, b.y1 + m};
}

#define MAX_BOXES 128
typedef struct placed {
    box b[MAX_BOXES];
    int n;
} placed;

static void place(placed *p, box b)
{
    if (p->n < MAX_BOXES)
        p->b[p->n++] = b;
}

static bool free_spot(const placed *p, box b)
{
    for (int i = 0; i < p->n; i++)
        if (overlaps(b, p->b[i]))
            return false;
    return true;
}

/* Segment (x0,y0)-(x1,y1) crosses the box. Sampling is enough at chart
 * scale and keeps this simple. */
static bool line_hits(box b, double x0, double y0, double x1, double y1)
{
    for (int i = 0; i <= 200; i++) {
        double t = i / 200.0, x = x0 + t * (x1 - x0), y = y0 + t * (y1 - y0);
        if (x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1)
            return true;
    }
    return false;
}

#define MAX_SEGS 40
typedef struct segs {
    double v[MAX_SEGS][4];
    int n;
} segs;

static void add_seg(segs *s, double x0, double y0, double x1, double y1)
{
    if (s->n < MAX_SEGS) {
        s->v[s->n][0] = x0;
        s->v[s->n][1] = y0;
        s->v[s->n][2] = x1;
        s->v[s->n][3] = y1;
        s->n++;
    }
}

/* No placed box and no drawn line inside b. */
static bool clear_of(const placed *p, const segs *s, box b)
{
    if (!free_spot(p, b))
        return false;
    for (int i = 0; i < s->n; i++)
        if (line_hits(b, s->v[i][0], s->v[i][1], s->v[i][2], s->v[i][3]))
            return false;
    return true;
}

/* ---- roofline ---------------------------------------------------------- */

typedef struct loglog {
    box area;
    double lx0, lx1, ly0, ly1; /* decades shown */
} loglog;

static double X(const loglog *g, double v)
{
    return g->area.x0 + (g->area.x1 - g->area.x0) * (log10(v) - g->lx0) / (g->lx1 - g->lx0);
}

static double Y(const loglog *g, double v)
{
    return g->area.y1 - (g->area.y1 - g->area.y0) * (log10(v) - g->ly0) / (g->ly1 - g->ly0);
}

static const char *decade_label(double v, const char *unit, char *buf, size_t n)
{
    if (unit)
        return roofline_fmt_si(v, unit, buf, n);
    snprintf(buf, n, "%g", v);
    return buf;
}

static void loglog_axes(cairo_t *cr, const loglog *g, const char *xtitle, const char *ytitle,
                        const char *yunit, placed *pl)
{
    box a = g->area;
    char buf[64];
    /* Minor grid (2..9 in each decade), then the decade grid over it. */
    cairo_set_line_width(cr, 0.5);
    cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
    for (int d = (int)floor(g->lx0); d < (int)ceil(g->lx1); d++)
        for (int m = 2; m <= 9; m++) {
            double x = X(g, m * pow(10, d));
            if (x > a.x0 && x < a.x1) {
                cairo_move_to(cr, x, a.y0);
                cairo_line_to(cr, x, a.y1);
            }
        }
    for (int d = (int)floor(g->ly0); d < (int)ceil(g->ly1); d++)
        for (int m = 2; m <= 9; m++) {
            double y = Y(g, m * pow(10, d));
            if (y > a.y0 && y < a.y1) {
                cairo_move_to(cr, a.x0, y);
                cairo_line_to(cr, a.x1, y);
            }
        }
    cairo_stroke(cr);
    cairo_set_line_width(cr, 0.8);
    cairo_set_source_rgb(cr, 0.82, 0.82, 0.82);
    for (int d = (int)ceil(g->lx0); d <= (int)floor(g->lx1); d++) {
        cairo_move_to(cr, X(g, pow(10, d)), a.y0);
        cairo_line_to(cr, X(g, pow(10, d)), a.y1);
    }
    for (int d = (int)ceil(g->ly0); d <= (int)floor(g->ly1); d++) {
        cairo_move_to(cr, a.x0, Y(g, pow(10, d)));
        cairo_line_to(cr, a.x1, Y(g, pow(10, d)));
    }
    cairo_stroke(cr);

    set_rgb(cr, ink);
    cairo_set_line_width(cr, 1.2);
    cairo_rectangle(cr, a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0);
    cairo_stroke(cr);

    font(cr, 12, false);
    for (int d = (int)ceil(g->lx0); d <= (int)floor(g->lx1); d++) {
        double x = X(g, pow(10, d));
        cairo_move_to(cr, x, a.y1);
        cairo_line_to(cr, x, a.y1 + 5);
        cairo_stroke(cr);
        place(pl, text(cr, decade_label(pow(10, d), NULL, buf, sizeof buf), x, a.y1 + 8, 0.5, 0));
    }
    for (int d = (int)ceil(g->ly0); d <= (int)floor(g->ly1); d++) {
        double y = Y(g, pow(10, d));
        cairo_move_to(cr, a.x0 - 5, y);
        cairo_line_to(cr, a.x0, y);
        cairo_stroke(cr);
        place(pl, text(cr, decade_label(pow(10, d), yunit, buf, sizeof buf), a.x0 - 8, y, 1, 0.5));
    }
    font(cr, 14, false);
    text(cr, xtitle, (a.x0 + a.x1) / 2, a.y1 + 32, 0.5, 0);
    text_rotated(cr, ytitle, a.x0 - 96, (a.y0 + a.y1) / 2, -M_PI / 2, 0.5, 1);
}

/* Compute roofs equal to within 0.5% share one line and one label. */
typedef struct roof_line {
    char label[160];
    const char *unit;
    double value;
    rgb colour;
} roof_line;

static int merge_roofs(const chart_roof *r, int n, roof_line *out, int max)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!(r[i].value > 0))
            continue;
        int j = 0;
        while (j < m && fabs(out[j].value - r[i].value) > 0.005 * r[i].value)
            j++;
        if (j < m) {
            size_t len = strlen(out[j].label);
            snprintf(out[j].label + len, sizeof out[j].label - len, ", %s",
                     r[i].label ? r[i].label : "");
            /* FP8 and INT8 share a rate but not a unit. */
            if (strcmp(out[j].unit, r[i].unit ? r[i].unit : "FLOP/s") != 0)
                out[j].unit = "OP/s";
        } else if (m < max) {
            snprintf(out[m].label, sizeof out[m].label, "%s", r[i].label ? r[i].label : "");
            out[m].value = r[i].value;
            out[m].unit = r[i].unit ? r[i].unit : "FLOP/s";
            out[m].colour = compute_palette[m % N_COMPUTE_PALETTE];
            m++;
        }
    }
    return m;
}

static void marker(cairo_t *cr, double x, double y, chart_point_style style, rgb c)
{
    /* show_text leaves a current point; without this the arc would start
     * with a line from the end of the last label. */
    cairo_new_path(cr);
    if (style == CHART_POINT_MEASURED) {
        /* Hollow diamond: measured. */
        cairo_move_to(cr, x, y - 7);
        cairo_line_to(cr, x + 7, y);
        cairo_line_to(cr, x, y + 7);
        cairo_line_to(cr, x - 7, y);
        cairo_close_path(cr);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        set_rgb(cr, c);
        cairo_set_line_width(cr, 2.2);
        cairo_stroke(cr);
    } else {
        cairo_arc(cr, x, y, 6, 0, 2 * M_PI);
        set_rgb(cr, c);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
    }
}

static void legend_line(cairo_t *cr, double x, double y, rgb c, bool dashed)
{
    set_rgb(cr, c);
    cairo_set_line_width(cr, 2.5);
    if (dashed) {
        double d[] = {7, 4};
        cairo_set_dash(cr, d, 2, 0);
    }
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x + 28, y);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

#define MAX_ROOFS 16
#define MAX_LEGEND 24

typedef struct legend_entry {
    char text[200];
    int kind; /* 0 solid line, 1 dashed line, 2 predicted, 3 measured, 4 ridge */
    rgb colour;
} legend_entry;

static box legend_size(cairo_t *cr, const legend_entry *e, int n)
{
    font(cr, 12, false);
    double w = 0;
    for (int i = 0; i < n; i++) {
        cairo_text_extents_t te;
        cairo_text_extents(cr, e[i].text, &te);
        if (te.x_advance > w)
            w = te.x_advance;
    }
    return (box){0, 0, w + 54, n * 20 + 12};
}

static void legend_draw(cairo_t *cr, const legend_entry *e, int n, box b)
{
    cairo_rectangle(cr, b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.92);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.75, 0.75, 0.75);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    font(cr, 12, false);
    for (int i = 0; i < n; i++) {
        double y = b.y0 + 16 + i * 20, x = b.x0 + 10;
        switch (e[i].kind) {
        case 0:
        case 1:
            legend_line(cr, x, y, e[i].colour, e[i].kind == 1);
            break;
        case 2:
            marker(cr, x + 14, y, CHART_POINT_PREDICTED, e[i].colour);
            break;
        case 3:
            marker(cr, x + 14, y, CHART_POINT_MEASURED, e[i].colour);
            break;
        default: {
            double d[] = {2, 3};
            set_rgb(cr, grey);
            cairo_set_line_width(cr, 1.2);
            cairo_set_dash(cr, d, 2, 0);
            cairo_move_to(cr, x + 14, y - 8);
            cairo_line_to(cr, x + 14, y + 8);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
            break;
        }
        }
        set_rgb(cr, ink);
        text(cr, e[i].text, x + 40, y, 0, 0.5);
    }
}

/* One roofline chart being drawn: its roofs, axes and what is placed. */
typedef struct roof_chart {
    const chart_roofline *c;
    cairo_t *cr;
    roof_line roofs[MAX_ROOFS];
    int nr;
    const chart_roof *mem; /* the first memory roof: the points' */
    double peak;           /* the highest compute roof */
    double ridge;          /* of the first compute and memory roofs */
    double xl, xr;         /* the x axis' ends */
    loglog g;
    placed pl;
    segs lines; /* every roof drawn, for labels to keep off */
} roof_chart;

/* Ranges: every point and ridge, a decade of air on both sides. */
static loglog roof_axes(const roof_chart *rc, double W, double H)
{
    const chart_roofline *c = rc->c;
    double ridge_lo = INFINITY, ridge_hi = 0, ymin = INFINITY;
    for (int i = 0; i < rc->nr; i++) {
        double r = rc->roofs[i].value / rc->mem->value;
        ridge_lo = fmin(ridge_lo, r);
        ridge_hi = fmax(ridge_hi, r);
    }
    double ai_lo = ridge_lo / 30, ai_hi = ridge_hi * 10;
    for (int i = 0; i < c->n_points; i++) {
        const chart_point *p = &c->points[i];
        if (p->ai > 0 && isfinite(p->ai)) {
            ai_lo = fmin(ai_lo, p->ai / 3);
            ai_hi = fmax(ai_hi, p->ai * 3);
        }
        if (p->flops > 0)
            ymin = fmin(ymin, p->flops / 3);
    }
    for (int i = 0; i < c->n_memory; i++)
        if (c->memory[i].value > 0)
            ymin = fmin(ymin, ai_lo * c->memory[i].value);
    for (int i = 0; i < rc->nr; i++)
        ymin = fmin(ymin, rc->roofs[i].value / 3);
    return (loglog){{128, 86, W - 36, H - 78},
                    floor(log10(ai_lo)),
                    ceil(log10(ai_hi)),
                    floor(log10(ymin)),
                    ceil(log10(rc->peak * 2.5))};
}

/* The roofs and the ridge, clipped to the plot area. */
static void draw_roofs(roof_chart *rc)
{
    cairo_t *cr = rc->cr;
    const loglog *gp = &rc->g;
    const chart_roofline *c = rc->c;
    cairo_save(cr);
    cairo_rectangle(cr, gp->area.x0, gp->area.y0, gp->area.x1 - gp->area.x0,
                    gp->area.y1 - gp->area.y0);
    cairo_clip(cr);
    /* Compute ceilings from where they meet the memory roof; the first
     * (the one the points are judged against) solid, the others dashed. */
    for (int i = rc->nr - 1; i >= 0; i--) {
        double r = rc->roofs[i].value / rc->mem->value;
        bool primary = i == 0;
        set_rgb(cr, rc->roofs[i].colour);
        cairo_set_line_width(cr, primary ? 3 : 2.2);
        if (!primary) {
            double d[] = {8, 5};
            cairo_set_dash(cr, d, 2, 0);
        }
        cairo_move_to(cr, X(gp, r), Y(gp, rc->roofs[i].value));
        cairo_line_to(cr, X(gp, rc->xr), Y(gp, rc->roofs[i].value));
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    /* Memory roofs up to the highest compute roof. */
    for (int i = c->n_memory - 1; i >= 0; i--) {
        const chart_roof *m = &c->memory[i];
        if (!(m->value > 0))
            continue;
        bool first = m == rc->mem;
        rgb col = memory_palette[i % N_MEMORY_PALETTE];
        set_rgb(cr, col);
        cairo_set_line_width(cr, first ? 3 : 2.2);
        if (!first) {
            double d[] = {8, 5};
            cairo_set_dash(cr, d, 2, 0);
        }
        double r = rc->peak / m->value;
        cairo_move_to(cr, X(gp, rc->xl), Y(gp, rc->xl * m->value));
        cairo_line_to(cr, X(gp, r), Y(gp, rc->peak));
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    /* The ridge of the first compute roof and the first memory roof. */
    double d[] = {2, 3};
    set_rgb(cr, grey);
    cairo_set_line_width(cr, 1.2);
    cairo_set_dash(cr, d, 2, 0);
    cairo_move_to(cr, X(gp, rc->ridge), Y(gp, rc->roofs[0].value));
    cairo_line_to(cr, X(gp, rc->ridge), gp->area.y1);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    /* A ring, so it is not mistaken for a kernel's marker. */
    cairo_new_path(cr);
    cairo_arc(cr, X(gp, rc->ridge), Y(gp, rc->roofs[0].value), 4.5, 0, 2 * M_PI);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill_preserve(cr);
    set_rgb(cr, grey);
    cairo_set_line_width(cr, 1.8);
    cairo_stroke(cr);
    cairo_restore(cr);

    /* Every line drawn, so that labels can keep off them. The dotted ridge
     * line is not one of them: a label's white backing may cover it without
     * hiding anything the chart needs. */
    for (int i = 0; i < rc->nr; i++)
        add_seg(&rc->lines, X(gp, rc->roofs[i].value / rc->mem->value), Y(gp, rc->roofs[i].value),
                gp->area.x1, Y(gp, rc->roofs[i].value));
    for (int i = 0; i < c->n_memory; i++)
        if (c->memory[i].value > 0)
            add_seg(&rc->lines, X(gp, rc->xl), Y(gp, rc->xl * c->memory[i].value),
                    X(gp, rc->peak / c->memory[i].value), Y(gp, rc->peak));
}

/* Compute roofs' labels at the right end, above their line, else below it,
 * else only the rate where the full name would collide. */
static void label_compute_roofs(roof_chart *rc)
{
    cairo_t *cr = rc->cr;
    const loglog *gp = &rc->g;
    char lab[256], rate[96];
    font(cr, 12.5, true);
    for (int i = 0; i < rc->nr; i++) {
        roofline_fmt_si(rc->roofs[i].value, rc->roofs[i].unit, rate, sizeof rate);
        snprintf(lab, sizeof lab, "%.150s: %s", rc->roofs[i].label, rate);
        double y = Y(gp, rc->roofs[i].value);
        const char *choice[4] = {lab, lab, rate, rate};
        box b = {0, 0, 0, 0};
        int k = 0;
        for (; k < 4; k++) {
            b = text_box(cr, choice[k], gp->area.x1 - 8, k % 2 ? y + 5 : y - 5, 1, k % 2 ? 0 : 1);
            /* Not far left of where the roof starts, or it reads as
             * another's. */
            if (clear_of(&rc->pl, &rc->lines, grow(b, 4)) && inside(b, gp->area) &&
                b.x0 >= X(gp, rc->roofs[i].value / rc->mem->value) - 60)
                break;
        }
        if (k == 4)
            k = 2;
        set_rgb(cr, rc->roofs[i].colour);
        text(cr, choice[k], b.x0, b.y0, 0, 0);
        place(&rc->pl, grow(b, 2));
    }
}

/* Memory roofs' labels along their slope, slid along the visible part of
 * the line until they touch nothing already placed. */
static void label_memory_roofs(roof_chart *rc)
{
    cairo_t *cr = rc->cr;
    const loglog *gp = &rc->g;
    const chart_roofline *c = rc->c;
    char buf[96], lab[256];
    for (int i = 0; i < c->n_memory; i++) {
        const chart_roof *m = &c->memory[i];
        if (!(m->value > 0))
            continue;
        snprintf(lab, sizeof lab, "%s: %s", m->label ? m->label : "DRAM",
                 roofline_fmt_si(m->value, "B/s", buf, sizeof buf));
        /* On screen the slope is the same everywhere on a log-log chart. */
        double x0 = X(gp, rc->xl), y0 = Y(gp, rc->xl * m->value);
        double x1 = X(gp, rc->peak / m->value), y1 = Y(gp, rc->peak);
        double ang = atan2(y1 - y0, x1 - x0);
        cairo_text_extents_t te;
        cairo_text_extents(cr, lab, &te);
        double len = hypot(x1 - x0, y1 - y0);
        double t0 = 0;
        if (y0 > gp->area.y1) /* the line enters through the bottom edge */
            t0 = (y0 - gp->area.y1) / (y0 - y1);
        for (double t = fmax(t0, 0.0) + 0.06; t < 0.95; t += 0.04) {
            double px = x0 + t * (x1 - x0), py = y0 + t * (y1 - y0);
            double ex = te.x_advance * cos(ang), ey = te.x_advance * sin(ang);
            double nx = 8 * sin(ang), ny = -8 * cos(ang);
            box b = {fmin(px, px + ex) + nx, fmin(py, py + ey) + ny - 14, fmax(px, px + ex) + nx,
                     fmax(py, py + ey) + ny};
            if (t * len + te.x_advance > len * 0.98)
                break;
            if (free_spot(&rc->pl, b) && inside(b, gp->area)) {
                set_rgb(cr, memory_palette[i % N_MEMORY_PALETTE]);
                cairo_save(cr);
                cairo_translate(cr, px + nx, py + ny);
                cairo_rotate(cr, ang);
                cairo_move_to(cr, 0, -3);
                cairo_show_text(cr, lab);
                cairo_restore(cr);
                place(&rc->pl, b);
                break;
            }
        }
    }
}

/* Ridge label at the foot of the dotted line. */
static void label_ridge(roof_chart *rc)
{
    cairo_t *cr = rc->cr;
    const loglog *gp = &rc->g;
    char buf[96], lab[256];
    font(cr, 12, false);
    set_rgb(cr, ink);
    if (rc->nr > 1)
        snprintf(lab, sizeof lab, "ridge %s FLOP/B (%.100s)",
                 roofline_fmt_num(rc->ridge, buf, sizeof buf), rc->roofs[0].label);
    else
        snprintf(lab, sizeof lab, "ridge %s FLOP/B", roofline_fmt_num(rc->ridge, buf, sizeof buf));
    box b = text_box(cr, lab, X(gp, rc->ridge) + 6, gp->area.y1 - 6, 0, 1);
    if (!inside(b, gp->area))
        b = text_box(cr, lab, X(gp, rc->ridge) - 6, gp->area.y1 - 6, 1, 1);
    cairo_rectangle(cr, b.x0 - 2, b.y0, b.x1 - b.x0 + 4, b.y1 - b.y0);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
    cairo_fill(cr);
    set_rgb(cr, ink);
    text(cr, lab, b.x0, b.y0, 0, 0);
    place(&rc->pl, grow(b, 2));
}

static int roof_legend_entries(const roof_chart *rc, legend_entry *le)
{
    const chart_roofline *c = rc->c;
    int nl = 0;
    for (int i = 0; i < c->n_memory && nl < MAX_LEGEND - 8; i++) {
        const chart_roof *m = &c->memory[i];
        if (!(m->value > 0))
            continue;
        bool points = false;
        for (int j = 0; j < c->n_points; j++)
            points |= c->points[j].level == i + 1;
        snprintf(le[nl].text, sizeof le[nl].text, "%s (%s)%s",
                 m == rc->mem ? "memory roof" : "memory ceiling", m->label ? m->label : "DRAM",
                 points ? " and its points" : "");
        le[nl].kind = m == rc->mem ? 0 : 1;
        le[nl++].colour = memory_palette[i % N_MEMORY_PALETTE];
    }
    for (int i = 0; i < rc->nr && nl < MAX_LEGEND - 3; i++) {
        snprintf(le[nl].text, sizeof le[nl].text, "compute roof (%.150s)", rc->roofs[i].label);
        le[nl].kind = i == 0 ? 0 : 1;
        le[nl++].colour = rc->roofs[i].colour;
    }
    snprintf(le[nl].text, sizeof le[nl].text, "ridge point");
    le[nl].kind = 4;
    le[nl++].colour = grey;
    bool any_pred = false, any_meas = false;
    for (int i = 0; i < c->n_points; i++) {
        any_pred |= c->points[i].style == CHART_POINT_PREDICTED;
        any_meas |= c->points[i].style == CHART_POINT_MEASURED;
    }
    if (any_pred) {
        snprintf(le[nl].text, sizeof le[nl].text, "%s",
                 c->point_legend ? c->point_legend : "predicted (attainable bound)");
        le[nl].kind = 2;
        le[nl++].colour = ink;
    }
    if (any_meas) {
        snprintf(le[nl].text, sizeof le[nl].text, "measured");
        le[nl].kind = 3;
        le[nl++].colour = ink;
    }
    return nl;
}

/* Whether the legend at b would cross a roof, the ridge or a point. */
static bool legend_fits(const roof_chart *rc, box b)
{
    const loglog *gp = &rc->g;
    const chart_roofline *c = rc->c;
    bool ok = free_spot(&rc->pl, grow(b, 4));
    for (int j = 0; j < rc->nr && ok; j++)
        ok = !line_hits(grow(b, 4), X(gp, rc->roofs[j].value / rc->mem->value),
                        Y(gp, rc->roofs[j].value), gp->area.x1, Y(gp, rc->roofs[j].value));
    for (int j = 0; j < c->n_memory && ok; j++)
        if (c->memory[j].value > 0)
            ok = !line_hits(grow(b, 4), X(gp, rc->xl), Y(gp, rc->xl * c->memory[j].value),
                            X(gp, rc->peak / c->memory[j].value), Y(gp, rc->peak));
    ok = ok && !line_hits(grow(b, 4), X(gp, rc->ridge), Y(gp, rc->roofs[0].value), X(gp, rc->ridge),
                          gp->area.y1);
    for (int j = 0; j < c->n_points && ok; j++)
        ok = !(X(gp, c->points[j].ai) > b.x0 - 10 && X(gp, c->points[j].ai) < b.x1 + 10 &&
               Y(gp, c->points[j].flops) > b.y0 - 10 && Y(gp, c->points[j].flops) < b.y1 + 10);
    return ok;
}

/* Legend: lower right when the ridge is in the left half, else upper left
 * (above the memory roof); it must not cross a roof. */
static box place_legend(roof_chart *rc, const legend_entry *le, int nl)
{
    const loglog *gp = &rc->g;
    box ls = legend_size(rc->cr, le, nl);
    double lw = ls.x1, lh = ls.y1;
    box cand[] = {
        {gp->area.x1 - 12 - lw, gp->area.y1 - 12 - lh - 24, gp->area.x1 - 12, gp->area.y1 - 36},
        {gp->area.x0 + 12, gp->area.y0 + 12, gp->area.x0 + 12 + lw, gp->area.y0 + 12 + lh},
        {gp->area.x1 - 12 - lw, gp->area.y1 - 12 - lh, gp->area.x1 - 12, gp->area.y1 - 12},
        {gp->area.x0 + 12, gp->area.y1 - 12 - lh, gp->area.x0 + 12 + lw, gp->area.y1 - 12},
    };
    box legend = cand[0];
    bool fits = false;
    for (size_t i = 0; i < sizeof cand / sizeof cand[0] && !fits; i++)
        if ((fits = legend_fits(rc, cand[i])))
            legend = cand[i];
    /* Crowded corners: any free spot, scanning from the top left. */
    for (double y = gp->area.y0 + 12; !fits && y + lh <= gp->area.y1 - 12; y += 20)
        for (double x = gp->area.x0 + 12; !fits && x + lw <= gp->area.x1 - 12; x += 20) {
            box b = {x, y, x + lw, y + lh};
            if ((fits = legend_fits(rc, b)))
                legend = b;
        }
    place(&rc->pl, grow(legend, 4));
    return legend;
}

/* Points and their labels; a label tries eight spots around its marker and
 * takes the first that collides with nothing. */
static void draw_points(roof_chart *rc)
{
    cairo_t *cr = rc->cr;
    const loglog *gp = &rc->g;
    const chart_roofline *c = rc->c;
    char lab[256];
    for (int i = 0; i < c->n_points; i++) {
        const chart_point *p = &c->points[i];
        if (!(p->ai > 0) || !(p->flops > 0) || !isfinite(p->ai))
            continue;
        double x = X(gp, p->ai), y = Y(gp, p->flops);
        place(&rc->pl, (box){x - 8, y - 8, x + 8, y + 8});
        const chart_point *q = i > 0 && p->joins_previous ? &c->points[i - 1] : NULL;
        if (q && q->ai > 0 && q->flops > 0 && isfinite(q->ai)) {
            cairo_new_path(cr);
            cairo_move_to(cr, X(gp, q->ai), Y(gp, q->flops));
            cairo_line_to(cr, x, y);
            cairo_set_source_rgba(cr, 0.42, 0.42, 0.42, 0.6);
            cairo_set_line_width(cr, 1.2);
            cairo_stroke(cr);
            add_seg(&rc->lines, X(gp, q->ai), Y(gp, q->flops), x, y);
        }
    }
    for (int i = 0; i < c->n_points; i++) {
        const chart_point *p = &c->points[i];
        if (!(p->ai > 0) || !(p->flops > 0) || !isfinite(p->ai))
            continue;
        rgb col = p->level > 0 ? memory_palette[(size_t)(p->level - 1) % N_MEMORY_PALETTE] : ink;
        double x = X(gp, p->ai), y = Y(gp, p->flops);
        marker(cr, x, y, p->style, col);
        char ai[32], fl[64];
        if (c->hierarchical)
            snprintf(lab, sizeof lab, "%s", p->label ? p->label : "");
        else
            snprintf(lab, sizeof lab, "%s (AI %s, %s)", p->label ? p->label : "",
                     roofline_fmt_num(p->ai, ai, sizeof ai),
                     roofline_fmt_si(p->flops, "FLOP/s", fl, sizeof fl));
        font(cr, c->hierarchical && p->level > 0 && !strchr(lab, ' ') ? 10 : 12, true);
        static const double spots[][4] = {
            {10, 6, 0, 0},   {10, -6, 0, 1}, {0, -12, 0.5, 1}, {0, 12, 0.5, 0},
            {-10, -6, 1, 1}, {-10, 6, 1, 0}, {12, 0, 0, 0.5},  {-12, 0, 1, 0.5},
        };
        box b = {0, 0, 0, 0};
        bool found = false;
        int dist = 0;
        for (; dist < 4 && !found; dist++)
            for (size_t s = 0; s < sizeof spots / sizeof spots[0] && !found; s++) {
                double dx = spots[s][0] * (1 + dist), dy = spots[s][1] * (1 + dist * 1.6);
                b = text_box(cr, lab, x + dx, y + dy, spots[s][2], spots[s][3]);
                found = clear_of(&rc->pl, &rc->lines, grow(b, 2)) && inside(b, gp->area);
            }
        if (!found) {
            b = text_box(cr, lab, x + 10, y + 6, 0, 0);
            if (b.x1 > gp->area.x1) /* keep it off the right margin */
                b = text_box(cr, lab, x - 10, y + 6, 1, 0);
        }
        if (dist > 1 || !found) {
            /* Moved away from its marker: a leader line keeps them paired. */
            double lx = fmin(fmax(x, b.x0), b.x1), ly = fmin(fmax(y, b.y0), b.y1);
            cairo_new_path(cr);
            cairo_move_to(cr, x, y);
            cairo_line_to(cr, lx, ly);
            set_rgb(cr, grey);
            cairo_set_line_width(cr, 0.9);
            cairo_stroke(cr);
            marker(cr, x, y, p->style, col);
        }
        cairo_rectangle(cr, b.x0 - 2, b.y0, b.x1 - b.x0 + 4, b.y1 - b.y0);
        cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
        cairo_fill(cr);
        set_rgb(cr, col);
        text(cr, lab, b.x0, b.y0, 0, 0);
        place(&rc->pl, grow(b, 2));
    }
}

bool chart_roofline_write(const chart_roofline *c, const char *path, char *err, size_t n)
{
    roof_chart *rc = xcalloc(1, sizeof *rc);
    rc->c = c;
    rc->nr = merge_roofs(c->compute, c->n_compute, rc->roofs, MAX_ROOFS);
    for (int i = 0; i < c->n_memory && !rc->mem; i++)
        if (c->memory[i].value > 0)
            rc->mem = &c->memory[i];
    if (rc->nr == 0 || !rc->mem) {
        snprintf(err, n, "a roofline chart needs a compute ceiling and a memory bandwidth");
        free(rc);
        return false;
    }
    rc->peak = rc->roofs[0].value;
    for (int i = 1; i < rc->nr; i++)
        if (rc->roofs[i].value > rc->peak)
            rc->peak = rc->roofs[i].value;
    canvas cv;
    /* A hierarchical chart's points fill the plot: its legend goes beside. */
    const double W = c->hierarchical ? 1300 : 1000, H = 660;
    rc->g = roof_axes(rc, 1000, H);
    if (!canvas_open(&cv, path, W, H, err, n)) {
        free(rc);
        return false;
    }
    cairo_t *cr = rc->cr = cv.cr;
    set_rgb(cr, ink);
    font(cr, 20, true);
    text(cr, c->title ? c->title : "Roofline", rc->g.area.x0, 22, 0, 0);
    if (c->subtitle) {
        font(cr, 12.5, false);
        set_rgb(cr, grey);
        text(cr, c->subtitle, rc->g.area.x0, 52, 0, 0);
    }
    loglog_axes(cr, &rc->g, "Arithmetic intensity (FLOP/byte)", "Performance (FLOP/s)", "FLOP/s",
                &rc->pl);
    rc->xl = pow(10, rc->g.lx0);
    rc->xr = pow(10, rc->g.lx1);
    rc->ridge = rc->roofs[0].value / rc->mem->value;
    draw_roofs(rc);
    label_compute_roofs(rc);
    label_memory_roofs(rc);
    label_ridge(rc);
    legend_entry le[MAX_LEGEND];
    int nl = roof_legend_entries(rc, le);
    box legend;
    if (c->hierarchical) {
        box ls = legend_size(cr, le, nl);
        legend = (box){rc->g.area.x1 + 16, rc->g.area.y0, rc->g.area.x1 + 16 + ls.x1,
                       rc->g.area.y0 + ls.y1};
    } else {
        legend = place_legend(rc, le, nl);
    }
    draw_points(rc);
    legend_draw(cr, le, nl, legend);
    free(rc);
    return canvas_close(&cv, err, n);
}

/* ---- occupancy --------------------------------------------------------- */

typedef struct linear {
    box area;
    double x0, x1, y0, y1;
} linear;

static double LX(const linear *g, double v)
{
    return g->area.x0 + (g->area.x1 - g->area.x0) * (v - g->x0) / (g->x1 - g->x0);
}

static double LY(const linear *g, double v)
{
    return g->area.y1 - (g->area.y1 - g->area.y0) * (v - g->y0) / (g->y1 - g->y0);
}

/* A tick step of 1, 2 or 5 x 10^k (or a power of two for bytes and
 * threads) giving at most max_ticks intervals. */
static double tick_step(double span, int max_ticks, bool pow2)
{
    if (pow2) {
        double s = 1;
        while (span / s > max_ticks)
            s *= 2;
        return s;
    }
    double base = pow(10, floor(log10(span / max_ticks)));
    static const double m[] = {1, 2, 5, 10};
    for (size_t i = 0; i < 4; i++)
        if (span / (base * m[i]) <= max_ticks)
            return base * m[i];
    return base * 10;
}

static const char *bytes_label(double v, char *buf, size_t n)
{
    if (v >= 1024 && fmod(v, 1024) == 0)
        snprintf(buf, n, "%gK", v / 1024);
    else
        snprintf(buf, n, "%g", v);
    return buf;
}

typedef struct occ_series {
    const char *title;
    const char *xtitle;
    double xmax;
    double xstep; /* tick step */
    bool bytes;
    int n;
    double *x;
    double *y; /* occupancy, % */
    bool step; /* hold each value until the next x */
    double cur_x, cur_y;
    const char *cur_label;
    const char *note;
} occ_series;

static void occ_panel(cairo_t *cr, box area, const occ_series *s)
{
    linear g = {area, 0, s->xmax, 0, 100};
    char buf[64];
    set_rgb(cr, ink);
    font(cr, 14, true);
    text(cr, s->title, area.x0, area.y0 - 30, 0, 0);

    cairo_set_line_width(cr, 0.8);
    cairo_set_source_rgb(cr, 0.86, 0.86, 0.86);
    for (double v = 0; v <= 100.001; v += 25) {
        cairo_move_to(cr, area.x0, LY(&g, v));
        cairo_line_to(cr, area.x1, LY(&g, v));
    }
    for (double v = 0; v <= s->xmax + 1e-9; v += s->xstep) {
        cairo_move_to(cr, LX(&g, v), area.y0);
        cairo_line_to(cr, LX(&g, v), area.y1);
    }
    cairo_stroke(cr);
    set_rgb(cr, ink);
    cairo_set_line_width(cr, 1.2);
    cairo_rectangle(cr, area.x0, area.y0, area.x1 - area.x0, area.y1 - area.y0);
    cairo_stroke(cr);
    font(cr, 11.5, false);
    for (double v = 0; v <= 100.001; v += 25) {
        snprintf(buf, sizeof buf, "%g%%", v);
        text(cr, buf, area.x0 - 7, LY(&g, v), 1, 0.5);
    }
    for (double v = 0; v <= s->xmax + 1e-9; v += s->xstep) {
        if (s->bytes)
            bytes_label(v, buf, sizeof buf);
        else
            snprintf(buf, sizeof buf, "%g", v);
        text(cr, buf, LX(&g, v), area.y1 + 6, 0.5, 0);
    }
    font(cr, 12.5, false);
    text(cr, s->xtitle, (area.x0 + area.x1) / 2, area.y1 + 26, 0.5, 0);
    if (s->note) {
        font(cr, 10.5, false);
        set_rgb(cr, grey);
        text(cr, s->note, (area.x0 + area.x1) / 2, area.y1 + 45, 0.5, 0);
    }

    cairo_save(cr);
    cairo_rectangle(cr, area.x0 - 2, area.y0 - 2, area.x1 - area.x0 + 4, area.y1 - area.y0 + 4);
    cairo_clip(cr);
    set_rgb(cr, palette[1]);
    cairo_set_line_width(cr, 2.2);
    for (int i = 0; i < s->n; i++) {
        double x = LX(&g, s->x[i]), y = LY(&g, s->y[i]);
        if (i == 0)
            cairo_move_to(cr, x, y);
        else if (s->step) {
            cairo_line_to(cr, x, LY(&g, s->y[i - 1]));
            cairo_line_to(cr, x, y);
        } else {
            cairo_line_to(cr, x, y);
        }
    }
    if (s->step && s->n)
        cairo_line_to(cr, LX(&g, s->xmax), LY(&g, s->y[s->n - 1]));
    cairo_stroke(cr);
    if (!s->step) {
        for (int i = 0; i < s->n; i++) {
            cairo_new_path(cr);
            cairo_arc(cr, LX(&g, s->x[i]), LY(&g, s->y[i]), 2.2, 0, 2 * M_PI);
            cairo_fill(cr);
        }
    }
    /* The kernel's own configuration. */
    double cx = LX(&g, s->cur_x), cy = LY(&g, s->cur_y);
    double d[] = {4, 3};
    set_rgb(cr, palette[0]);
    cairo_set_line_width(cr, 1.2);
    cairo_set_dash(cr, d, 2, 0);
    cairo_move_to(cr, cx, area.y0);
    cairo_line_to(cr, cx, area.y1);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_new_path(cr);
    cairo_arc(cr, cx, cy, 6.5, 0, 2 * M_PI);
    set_rgb(cr, palette[0]);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
    cairo_restore(cr);

    /* Its label sits beside the marker, on whichever side has room and
     * away from the curve's 0 and 100% lines. */
    font(cr, 12, true);
    double ly = cy < area.y0 + 40 ? cy + 12 : cy - 12;
    double lay = cy < area.y0 + 40 ? 0 : 1;
    box b = text_box(cr, s->cur_label, cx + 10, ly, 0, lay);
    if (b.x1 > area.x1 - 4)
        b = text_box(cr, s->cur_label, cx - 10, ly, 1, lay);
    if (b.x0 < area.x0 + 4)
        b = text_box(cr, s->cur_label, (area.x0 + area.x1) / 2, ly, 0.5, lay);
    cairo_rectangle(cr, b.x0 - 3, b.y0 - 1, b.x1 - b.x0 + 6, b.y1 - b.y0 + 2);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
    cairo_fill(cr);
    set_rgb(cr, palette[0]);
    text(cr, s->cur_label, b.x0, b.y0, 0, 0);
}

/* The line under the title: the launch and its occupancy, or why it
 * cannot launch. */
static void occ_subtitle(const occ_kernel *k, const occ_launch *l, const occ_result *cur, char *sub,
                         size_t n)
{
    char buf[64];
    int64_t used = k->static_smem + l->dynamic_smem;
    if (cur->failure != OCC_OK) {
        snprintf(sub, n,
                 "%d threads/block, %d registers/thread, %s shared/block: cannot launch (%s)",
                 l->threads_per_block, k->regs_per_thread, units_fmt_bytes(used, buf, sizeof buf),
                 occ_failure_reason(cur->failure));
        return;
    }
    char lim[96] = "";
    size_t len = 0;
    for (unsigned bit = 1; bit <= OCC_LIM_BARRIERS; bit <<= 1)
        if (cur->limiters & bit)
            len += (size_t)snprintf(lim + len, sizeof lim - len, "%s%s", len ? ", " : "",
                                    occ_limiter_name((occ_limiter)bit));
    snprintf(sub, n,
             "%d threads/block, %d registers/thread, %s shared/block: %.0f%% "
             "occupancy (%d of %d warps per SM, %d blocks/SM), limited by %s",
             l->threads_per_block, k->regs_per_thread, units_fmt_bytes(used, buf, sizeof buf),
             cur->occupancy * 100, cur->warps_per_sm, cur->max_warps_per_sm, cur->blocks_per_sm,
             lim);
}

/* The three panels' series around the kernel's own point. */
static void occ_series_all(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l,
                           const occ_result *cur, occ_curve *cv, char lab[3][96], char *note,
                           size_t note_n, occ_series *s)
{
    char buf[64];
    double pct = cur->occupancy * 100;
    occ_curve_threads(arch, k, l, &cv[0]);
    s[0] = (occ_series){"Occupancy vs threads per block",
                        "Threads per block",
                        arch->max_threads_per_block,
                        tick_step(arch->max_threads_per_block, 8, true),
                        false,
                        cv[0].n,
                        cv[0].x,
                        cv[0].y,
                        false,
                        l->threads_per_block,
                        pct,
                        lab[0],
                        NULL};
    snprintf(lab[0], 96, "%d threads: %.0f%%", l->threads_per_block, pct);
    occ_curve_registers(arch, k, l, &cv[1]);
    double rmax = arch->max_regs_per_thread > 0 ? arch->max_regs_per_thread + 1 : 256;
    s[1] = (occ_series){"Occupancy vs registers per thread",
                        "Registers per thread",
                        rmax,
                        tick_step(rmax, 8, true),
                        false,
                        cv[1].n,
                        cv[1].x,
                        cv[1].y,
                        true,
                        k->regs_per_thread,
                        pct,
                        lab[1],
                        NULL};
    snprintf(lab[1], 96, "%d registers: %.0f%%", k->regs_per_thread, pct);
    int64_t smax = occ_curve_smem(arch, k, l, &cv[2]);
    int64_t used = k->static_smem + l->dynamic_smem;
    note[0] = 0;
    if (arch->smem_per_block_optin > arch->smem_per_block)
        snprintf(note, note_n, "above %s per block assumes the opt-in attribute is set",
                 units_fmt_bytes(arch->smem_per_block, buf, sizeof buf));
    double sstep = tick_step((double)smax, 8, true);
    if (sstep < 1024 && smax >= 8 * 1024)
        sstep = 1024;
    s[2] = (occ_series){"Occupancy vs shared memory per block",
                        "Shared memory per block (bytes; K = 1024)",
                        (double)smax,
                        sstep,
                        true,
                        cv[2].n,
                        cv[2].x,
                        cv[2].y,
                        true,
                        (double)used,
                        pct,
                        lab[2],
                        note[0] ? note : NULL};
    snprintf(lab[2], 96, "%s: %.0f%%", units_fmt_bytes(used, buf, sizeof buf), pct);
}

bool chart_occupancy(const gpu_arch *arch, const occ_kernel *k, const occ_launch *l,
                     const char *title, const char *path, char *err, size_t n)
{
    if (!arch || !k || !l || arch->warp_size <= 0 || arch->max_threads_per_block <= 0) {
        snprintf(err, n, "an occupancy chart needs an architecture, a kernel and a launch");
        return false;
    }
    occ_result cur;
    occ_compute(arch, k, l, &cur);
    double(*xs)[OCC_MAX_SAMPLES] = xcalloc(3, sizeof *xs);
    double(*ys)[OCC_MAX_SAMPLES] = xcalloc(3, sizeof *ys);
    occ_curve cv[3] = {{xs[0], ys[0], 0}, {xs[1], ys[1], 0}, {xs[2], ys[2], 0}};
    occ_series s[3];
    char lab[3][96], head[256], sub[320], note[128];
    memset(s, 0, sizeof s);
    occ_series_all(arch, k, l, &cur, cv, lab, note, sizeof note, s);

    canvas cvs;
    const double W = 1500, H = 560;
    bool ok = canvas_open(&cvs, path, W, H, err, n);
    if (ok) {
        cairo_t *cr = cvs.cr;
        if (title)
            snprintf(head, sizeof head, "Theoretical occupancy: %s", title);
        else
            snprintf(head, sizeof head, "Theoretical occupancy: %s%s%s%s", arch->name,
                     arch->family[0] ? " (" : "", arch->family, arch->family[0] ? ")" : "");
        set_rgb(cr, ink);
        font(cr, 20, true);
        text(cr, head, 70, 20, 0, 0);
        occ_subtitle(k, l, &cur, sub, sizeof sub);
        font(cr, 13, false);
        set_rgb(cr, grey);
        text(cr, sub, 70, 50, 0, 0);
        double pw = (W - 70 - 30 - 2 * 70) / 3;
        for (int i = 0; i < 3; i++) {
            box area = {70 + i * (pw + 70), 130, 70 + i * (pw + 70) + pw, H - 90};
            occ_panel(cr, area, &s[i]);
        }
        ok = canvas_close(&cvs, err, n);
    }
    free(xs);
    free(ys);
    return ok;
}
