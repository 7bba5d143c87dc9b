/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_map.c - the pictures of --profile-map and --profile-html
 * (profile_map.h). Items with the same path (every token equal) share a
 * colour; a group's efficiency is its own replay's useful / issued lane
 * work (profile_replay on its items alone), so a map of random inputs
 * shows how much each group lost, not only that it diverged.
 *
 * The cells: a 2-D (or 3-D) launch keeps its geometry (x across, the rest
 * down); a 1-D launch is wrapped in rows of whole SIMD groups. Past
 * MAP_MAX_CELLS items a cell holds a SIMD group (or several). Small maps
 * are magnified to about 512 pixels across.
 */
#include "profile_map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "util.h"

#define MARGIN 10
#define INK 0x212121u
#define PAPER 0xffffffu
#define FRAME 0xbdbdbdu
#define PAST_END 0xeeeeeeu  /* cells after the launch's last item (1-D rows) */
#define BAR_W 256
#define BAR_H 14
#define MAX_COLS 1024

static const unsigned palette[MAP_PATHS] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728,
                                            0x9467bd, 0x8c564b, 0xe377c2, 0xbcbd22};

unsigned profile_map_path_colour(unsigned n)
{
    return n < MAP_PATHS ? palette[n] : MAP_OTHER_PATH;
}

static unsigned mix(unsigned a, unsigned b, double t)
{
    unsigned out = 0;
    for (int s = 16; s >= 0; s -= 8) {
        double x = ((a >> s) & 255) + t * ((double)((b >> s) & 255) - ((a >> s) & 255));
        out |= (unsigned)lround(x) << s;
    }
    return out;
}

unsigned profile_map_efficiency_colour(double e)
{
    if (!(e > 0))
        return MAP_DIVERGED;
    if (e >= 1)
        return MAP_UNIFORM;
    return e < 0.5 ? mix(MAP_DIVERGED, MAP_HALF, e / 0.5) : mix(MAP_HALF, MAP_UNIFORM,
                                                                   (e - 0.5) / 0.5);
}

static int same_path(const ptrace *a, const ptrace *b)
{
    return a->n == b->n && !memcmp(a->tok, b->tok, a->n);
}

/* ---- where the cells are --------------------------------------------------------- */

typedef struct cells {
    unsigned long long span;  /* linear ids per cell */
    int grid;                 /* cells follow global[0] */
    size_t g0;                /* global[0] */
    unsigned cols, rows, zoom;
    unsigned long long items; /* the launch's */
} cells;

static void place_cells(const profile_report *rep, cells *c)
{
    unsigned long long items = rep->items ? rep->items : 1, w = rep->width ? rep->width : 1;
    memset(c, 0, sizeof *c);
    c->span = 1;
    c->items = items;
    if (items > MAP_MAX_CELLS) {
        unsigned long long groups = (items + w - 1) / w;
        c->span = w * ((groups + MAP_MAX_CELLS - 1) / MAP_MAX_CELLS);
    }
    c->g0 = rep->global[0] ? rep->global[0] : 1;
    c->grid = rep->dim >= 2 && c->g0 % c->span == 0 && c->g0 / c->span <= 4 * MAX_COLS &&
              items / c->g0 <= 4 * MAX_COLS; /* else wrapped: a picture of reasonable size */
    if (c->grid) {
        c->cols = (unsigned)(c->g0 / c->span);
        c->rows = (unsigned)(items / c->g0);
    } else {
        unsigned long long n = (items + c->span - 1) / c->span;
        unsigned long long cols = (unsigned long long)ceil(sqrt((double)n));
        if (c->span == 1)
            cols = (cols + w - 1) / w * w; /* whole groups a row */
        if (cols > MAX_COLS)
            cols = c->span == 1 ? MAX_COLS / w * w : MAX_COLS;
        c->cols = (unsigned)(cols ? cols : 1);
        c->rows = (unsigned)((n + c->cols - 1) / c->cols);
    }
    if (!c->rows)
        c->rows = 1;
    unsigned z = 512 / c->cols;
    if (z > 8)
        z = 8;
    if (z > 1024 / c->rows)
        z = 1024 / c->rows;
    c->zoom = z ? z : 1;
}

static size_t cell_of(const cells *c, unsigned long long id)
{
    if (c->grid)
        return (size_t)(id / c->g0) * c->cols + (size_t)(id % c->g0 / c->span);
    return (size_t)(id / c->span);
}

/* ---- what each cell shows ---------------------------------------------------------- */

/* Per recorded item: the index of its path among the distinct ones seen first (MAP_PATHS: other). */
static unsigned path_indices(const profile_result *r, unsigned *idx, unsigned long long *count,
                             const ptrace **seen)
{
    unsigned nseen = 0;
    for (size_t i = 0; i < r->n; i++) {
        unsigned k = 0;
        while (k < nseen && !same_path(seen[k], &r->traces[i]))
            k++;
        if (k == nseen && nseen < MAP_PATHS)
            seen[nseen++] = &r->traces[i];
        idx[i] = k;
        count[k]++;
    }
    return nseen;
}

/* The paths legend's words for a path (profile_map.h): the path replayed alone. */
void profile_map_describe_path(const ptree *t, const ptrace *path, char *out, size_t cap)
{
    pstats s;
    pstats_init(&s, t);
    profile_replay(t, path, NULL, NULL, 1, 1, &s);
    strbuf sb;
    sb_init(&sb);
    for (unsigned c = 0; c < t->nc; c++) {
        const pconstruct *pc = &t->c[c];
        const unsigned long long *n = s.c[c].arm_items;
        if (!s.c[c].reached)
            continue;
        sb_printf(&sb, "%s%s %u", sb.len ? ", " : "", pc->what, pc->line);
        if (pc->kind == PN_LOOP) {
            sb_printf(&sb, " x%llu", n[1]);
            continue;
        }
        unsigned taken = 0;
        for (unsigned a = 0; a < pc->narms; a++)
            taken += n[a] > 0;
        for (unsigned a = 0; a < pc->narms; a++) {
            if (!n[a])
                continue;
            if (pc->kind == PN_IF)
                sb_printf(&sb, " %s", a ? "else" : "then");
            else
                sb_printf(&sb, " entry %u", a + 1);
            if (taken > 1 || n[a] > 1)
                sb_printf(&sb, " x%llu", n[a]);
        }
    }
    if (sb.len + 1 > cap && cap > 4)
        snprintf(out, cap, "%.*s...", (int)(cap - 4), sb.data);
    else
        snprintf(out, cap, "%s", sb.len ? sb.data : "no decision");
    sb_free(&sb);
    pstats_free(&s);
}

/*
 * Per recorded item: its group's useful and issued lane work, each item a
 * 1/len share. The groups are the replay's: at most width consecutive
 * recorded items, ending where the sampled run (lay.unit) changes.
 */
static double group_work(const profile_report *rep, unsigned k, double *useful, double *issued)
{
    const profile_result *r = &rep->res[k];
    const ptree *t = &rep->ks[k].tree;
    unsigned w = rep->width ? rep->width : 1, unit = rep->lay.unit ? rep->lay.unit : 1;
    pstats s;
    pstats_init(&s, t);
    for (size_t g = 0; g < r->n;) {
        size_t end = g + 1;
        while (end < r->n && end - g < w && r->ids[end] / unit == r->ids[g] / unit)
            end++;
        double u0 = s.useful, i0 = s.issued;
        profile_replay(t, r->traces + g, NULL, NULL, end - g, w, &s);
        for (size_t i = g; i < end; i++) {
            useful[i] = (s.useful - u0) / (double)(end - g);
            issued[i] = (s.issued - i0) / (double)(end - g);
        }
        g = end;
    }
    double e = pstats_efficiency(&s);
    pstats_free(&s);
    return e;
}

/* ---- the pictures ---------------------------------------------------------------- */

typedef struct picture {
    canvas cv;
    unsigned map_x, map_y, y;    /* y: where the legend's next line goes */
    const cells *c;
} picture;

static unsigned text_lines_width(char lines[][160], unsigned n)
{
    unsigned w = 0;
    for (unsigned i = 0; i < n; i++)
        if (canvas_text_width(lines[i]) > w)
            w = canvas_text_width(lines[i]);
    return w;
}

static void put_cell(picture *p, size_t cell, unsigned rgb)
{
    unsigned z = p->c->zoom;
    canvas_fill(&p->cv, p->map_x + (unsigned)(cell % p->c->cols) * z,
                p->map_y + (unsigned)(cell / p->c->cols) * z, z, z, rgb);
}

/* The canvas with its title lines, the map's frame, room for legend lines below. */
static void start_picture(picture *p, const cells *c, char head[][160], unsigned nhead,
                          char legend[][160], unsigned nlegend, unsigned legend_extra)
{
    unsigned map_w = c->cols * c->zoom, map_h = c->rows * c->zoom;
    unsigned w = map_w + 2, tw = text_lines_width(head, nhead), lw;
    lw = text_lines_width(legend, nlegend) + 16;
    if (tw > w)
        w = tw;
    if (lw > w)
        w = lw;
    if (legend_extra && BAR_W + 24 > w)
        w = BAR_W + 24;
    w += 2 * MARGIN;
    p->c = c;
    p->map_x = MARGIN + 1;
    p->map_y = MARGIN + nhead * CANVAS_GLYPH_H + 6;
    unsigned h = p->map_y + map_h + 1 + 10 + legend_extra + nlegend * (CANVAS_GLYPH_H + 3) +
                 MARGIN;
    canvas_init(&p->cv, w, h, PAPER);
    for (unsigned i = 0; i < nhead; i++)
        canvas_text(&p->cv, MARGIN, MARGIN + i * CANVAS_GLYPH_H, head[i], INK);
    canvas_fill(&p->cv, p->map_x - 1, p->map_y - 1, map_w + 2, map_h + 2, FRAME);
    canvas_fill(&p->cv, p->map_x, p->map_y, map_w, map_h, MAP_UNRECORDED);
    p->y = p->map_y + map_h + 1 + 10;
    size_t launch = c->grid ? (size_t)c->cols * c->rows
                            : (size_t)((c->items + c->span - 1) / c->span);
    for (size_t x = launch; x < (size_t)c->cols * c->rows; x++) /* past the launch's end */
        put_cell(p, x, PAST_END);
}

static void legend_line(picture *p, unsigned rgb, const char *text)
{
    canvas_fill(&p->cv, MARGIN, p->y, 11, 11, FRAME);
    canvas_fill(&p->cv, MARGIN + 1, p->y + 1, 9, 9, rgb);
    canvas_text(&p->cv, MARGIN + 16, p->y + 1, text, INK);
    p->y += CANVAS_GLYPH_H + 3;
}

/* The efficiency scale: a colour bar from 0 to 1 with ticks and labels. */
static void scale_bar(picture *p, double kernel_e)
{
    unsigned x0 = MARGIN + 8, y0 = p->y;
    canvas_fill(&p->cv, x0 - 1, y0 - 1, BAR_W + 2, BAR_H + 2, FRAME);
    for (unsigned i = 0; i < BAR_W; i++)
        canvas_fill(&p->cv, x0 + i, y0, 1, BAR_H,
                    profile_map_efficiency_colour((double)i / (BAR_W - 1)));
    static const char *const labels[] = {"0", "0.25", "0.5", "0.75", "1"};
    for (unsigned t = 0; t < 5; t++) {
        unsigned x = x0 + t * (BAR_W - 1) / 4;
        canvas_fill(&p->cv, x, y0 + BAR_H + 1, 1, 4, INK);
        canvas_text(&p->cv, x - canvas_text_width(labels[t]) / 2, y0 + BAR_H + 7, labels[t],
                    INK);
    }
    unsigned kx = x0 + (unsigned)lround((kernel_e < 0 ? 0 : kernel_e > 1 ? 1 : kernel_e) *
                                        (BAR_W - 1));
    for (unsigned r = 0; r < 4; r++) /* the kernel's mark: a triangle pointing down */
        canvas_fill(&p->cv, kx + r >= 3 ? kx + r - 3 : 0, y0 - 6 + r, 7 - 2 * r, 1, INK);
    p->y = y0 + BAR_H + 7 + CANVAS_GLYPH_H + 4;
}

static void geometry_line(const profile_report *rep, const cells *c, char *out)
{
    char groups[64];
    if (c->span == rep->width)
        snprintf(groups, sizeof groups, "a simd group");
    else
        snprintf(groups, sizeof groups, "%llu simd groups", c->span / rep->width);
    if (c->grid && c->span == 1 && rep->dim == 3)
        snprintf(out, 160, "%zu x %zu x %zu items: a cell an item (x across, y down, z slices "
                           "stacked), %u px", rep->global[0], rep->global[1], rep->global[2],
                 c->zoom);
    else if (c->grid && c->span == 1)
        snprintf(out, 160, "%zu x %llu items: a cell an item (x across, y down), %u px", c->g0,
                 rep->items / c->g0, c->zoom);
    else if (c->grid)
        snprintf(out, 160, "%zu x %llu items: a cell %llu items along x (%s)", c->g0,
                 rep->items / c->g0, c->span, groups);
    else if (c->span == 1)
        snprintf(out, 160, "%llu items by linear id in rows of %u: a cell an item, %u px",
                 rep->items, c->cols, c->zoom);
    else
        snprintf(out, 160, "%llu items by linear id in rows of %u cells: a cell %llu items "
                           "(%s)", rep->items, c->cols, c->span, groups);
}

static int finish(picture *p, profile_map_png *out)
{
    char meta[200];
    snprintf(meta, sizeof meta, "x=%u y=%u w=%u h=%u zoom=%u cols=%u rows=%u span=%llu",
             p->map_x, p->map_y, p->c->cols * p->c->zoom, p->c->rows * p->c->zoom, p->c->zoom,
             p->c->cols, p->c->rows, p->c->span);
    out->w = p->cv.w;
    out->h = p->cv.h;
    int rc = canvas_png(&p->cv, "nplus1-map", meta, &out->png, &out->len);
    canvas_free(&p->cv);
    return rc;
}

static int paths_picture(const profile_report *rep, unsigned k, const cells *c,
                         profile_map_png *out)
{
    const profile_result *r = &rep->res[k];
    size_t ncells = (size_t)c->cols * c->rows;
    unsigned *idx = xcalloc(r->n ? r->n : 1, sizeof *idx);
    unsigned long long count[MAP_PATHS + 1] = {0};
    const ptrace *seen[MAP_PATHS];
    unsigned nseen = path_indices(r, idx, count, seen);
    /* per cell, its recorded items per path; the cell shows the most common */
    unsigned *per = xcalloc(ncells * (MAP_PATHS + 1), sizeof *per);
    for (size_t i = 0; i < r->n; i++) {
        size_t x = cell_of(c, r->ids[i]);
        if (x < ncells)
            per[x * (MAP_PATHS + 1) + idx[i]]++;
    }
    char head[3][160], legend[MAP_PATHS + 3][160];
    unsigned nhead = 0, nl = 0;
    unsigned rgb[MAP_PATHS + 3];
    snprintf(head[nhead++], 160, "kernel %s: the path each item took", rep->ks[k].name);
    geometry_line(rep, c, head[nhead++]);
    if (r->n < rep->items)
        snprintf(head[nhead++], 160, "sampled: %zu of %llu items recorded", r->n, rep->items);
    for (unsigned p = 0; p <= MAP_PATHS; p++) {
        if (p == nseen && p < MAP_PATHS)
            p = MAP_PATHS;
        if (!count[p])
            continue;
        rgb[nl] = profile_map_path_colour(p);
        char what[72];
        if (p < MAP_PATHS)
            profile_map_describe_path(&rep->ks[k].tree, seen[p], what, sizeof what);
        if (p < MAP_PATHS)
            snprintf(legend[nl++], 160, "path %u: %llu items (%.1f%%): %s", p + 1, count[p],
                     100.0 * (double)count[p] / (double)(r->n ? r->n : 1), what);
        else
            snprintf(legend[nl++], 160, "the other paths: %llu items (%.1f%%)", count[p],
                     100.0 * (double)count[p] / (double)(r->n ? r->n : 1));
    }
    if (c->span > 1) {
        rgb[nl] = INK;
        snprintf(legend[nl++], 160, "(a cell of %llu items shows the path most of them took)",
                 c->span);
    }
    if (r->n < rep->items) {
        rgb[nl] = MAP_UNRECORDED;
        snprintf(legend[nl++], 160, "not recorded (the sample left it out)");
    }
    picture pic;
    start_picture(&pic, c, head, nhead, legend, nl, 0);
    for (size_t x = 0; x < ncells; x++) {
        const unsigned *n = per + x * (MAP_PATHS + 1);
        unsigned best = 0;
        for (unsigned p = 1; p <= MAP_PATHS; p++)
            best = n[p] > n[best] ? p : best;
        if (n[best])
            put_cell(&pic, x, profile_map_path_colour(best));
    }
    for (unsigned i = 0; i < nl; i++) {
        if (rgb[i] == INK) /* a note, no swatch */
            canvas_text(&pic.cv, MARGIN, pic.y + 1, legend[i], INK);
        else
            legend_line(&pic, rgb[i], legend[i]);
        pic.y += rgb[i] == INK ? CANVAS_GLYPH_H + 3 : 0;
    }
    free(per);
    free(idx);
    return finish(&pic, out);
}

static int groups_picture(const profile_report *rep, unsigned k, const cells *c,
                          profile_map_png *out)
{
    const profile_result *r = &rep->res[k];
    size_t ncells = (size_t)c->cols * c->rows;
    double *useful = xcalloc(r->n ? r->n : 1, sizeof *useful);
    double *issued = xcalloc(r->n ? r->n : 1, sizeof *issued);
    double e = group_work(rep, k, useful, issued);
    double *cu = xcalloc(ncells, sizeof *cu), *ci = xcalloc(ncells, sizeof *ci);
    unsigned char *hit = xcalloc(ncells, 1);
    for (size_t i = 0; i < r->n; i++) {
        size_t x = cell_of(c, r->ids[i]);
        if (x < ncells) {
            cu[x] += useful[i];
            ci[x] += issued[i];
            hit[x] = 1;
        }
    }
    char head[3][160], legend[3][160];
    unsigned nhead = 0, nl = 0;
    snprintf(head[nhead++], 160, "kernel %s: the simt efficiency of each group of %u",
             rep->ks[k].name, rep->width);
    geometry_line(rep, c, head[nhead++]);
    if (r->n < rep->items)
        snprintf(head[nhead++], 160, "sampled: %zu of %llu items recorded", r->n, rep->items);
    snprintf(legend[nl++], 160, "useful / issued lane work of a group: 1 = its lanes never "
                                "split");
    snprintf(legend[nl++], 160, "the kernel (mark above the bar): %.2f", e);
    if (r->n < rep->items)
        snprintf(legend[nl++], 160, "not recorded (the sample left it out)");
    picture pic;
    start_picture(&pic, c, head, nhead, legend, nl, BAR_H + 7 + CANVAS_GLYPH_H + 8);
    for (size_t x = 0; x < ncells; x++)
        if (hit[x])
            put_cell(&pic, x, profile_map_efficiency_colour(ci[x] > 0 ? cu[x] / ci[x] : 1.0));
    pic.y += 4;
    scale_bar(&pic, e);
    canvas_text(&pic.cv, MARGIN, pic.y, legend[0], INK);
    pic.y += CANVAS_GLYPH_H + 3;
    canvas_text(&pic.cv, MARGIN, pic.y, legend[1], INK);
    pic.y += CANVAS_GLYPH_H + 3;
    if (nl > 2)
        legend_line(&pic, MAP_UNRECORDED, legend[2]);
    free(useful);
    free(issued);
    free(cu);
    free(ci);
    free(hit);
    return finish(&pic, out);
}

int profile_map_render(const profile_report *rep, unsigned k, profile_map_png out[2])
{
    memset(out, 0, 2 * sizeof *out);
    cells c;
    place_cells(rep, &c);
    if (paths_picture(rep, k, &c, &out[0]) != 0 || groups_picture(rep, k, &c, &out[1]) != 0) {
        profile_map_png_free(out);
        return -1;
    }
    return 0;
}

void profile_map_png_free(profile_map_png out[2])
{
    for (int i = 0; i < 2; i++) {
        free(out[i].png);
        memset(&out[i], 0, sizeof out[i]);
    }
}

static int write_bytes(const char *path, const profile_map_png *m)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(m->png, 1, m->len, f) == m->len;
    if (f)
        ok &= fclose(f) == 0;
    if (!ok)
        fprintf(stderr, "nplus1gen: error: cannot write '%s'\n", path);
    return ok ? 0 : 3;
}

static char *groups_path(const char *file)
{
    size_t n = strlen(file);
    if (n > 4 && !strcmp(file + n - 4, ".png"))
        n -= 4;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%.*s.groups.png", (int)n, file);
    return sb_steal(&sb);
}

int profile_write_map(const profile_report *rep, const char *file)
{
    profile_map_png m[2];
    if (!rep->nks || profile_map_render(rep, 0, m) != 0) {
        fprintf(stderr, "nplus1gen: error: cannot write '%s': this nplus1gen was built without "
                        "libpng (install libpng-dev and build again)\n", file);
        return 3;
    }
    char *gpath = groups_path(file);
    int rc = write_bytes(file, &m[0]);
    if (rc == 0)
        rc = write_bytes(gpath, &m[1]);
    if (rc == 0)
        printf("wrote %s (each item's path, %ux%u) and %s (each group of %u's SIMT efficiency, "
               "%ux%u)\n", file, m[0].w, m[0].h, gpath, rep->width, m[1].w, m[1].h);
    free(gpath);
    profile_map_png_free(m);
    return rc;
}
