/* SPDX-License-Identifier: Apache-2.0 */
/*
 * outdir.c - writing the generated set into -o DIR (see outdir.h): every
 * file to a hidden temporary beside it, then all renamed into place under
 * the folder's flock, with the replaced files kept until every rename
 * succeeded; and the --depfile text.
 */
#define _DEFAULT_SOURCE /* flock() */
#include "outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"


/* Creates the missing parents of dir, like mkdir -p. */
static void make_parents(const char *dir)
{
    char *p = xstrdup(dir);
    for (char *c = p + 1; *c; c++) {
        if (*c != '/')
            continue;
        *c = '\0';
        mkdir(p, 0777); /* errors show when dir itself is made */
        *c = '/';
    }
    free(p);
}

int outdir_make(const char *dir, int *created)
{
    make_parents(dir);
    *created = mkdir(dir, 0777) == 0;
    if (*created || errno == EEXIST) {
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            return 0;
        errno = ENOTDIR;
    }
    return -1;
}

static int write_all(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = strlen(text);
    int bad = fwrite(text, 1, n, f) != n;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

/* "dir/.base<what><pid>" for final "dir/base". */
static char *hidden_sibling(const char *final, const char *what)
{
    const char *slash = strrchr(final, '/');
    size_t dirlen = slash ? (size_t)(slash - final) + 1 : 0;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%.*s.%s%s%ld", (int)dirlen, final, final + dirlen, what, (long)getpid());
    return sb_steal(&sb);
}

/* Puts back what was there before files[0..n) were renamed into place. */
static void restore(out_file *files, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (files[i].existed)
            rename(files[i].backup, files[i].final);
        else
            unlink(files[i].final);
    }
}

/* For file systems without hard links. */
static int copy_file(const char *from, const char *to)
{
    char *text;
    size_t len;
    if (read_file(from, &text, &len) != 0)
        return -1;
    FILE *f = fopen(to, "wb");
    int bad = !f || fwrite(text, 1, len, f) != len;
    if (f)
        bad |= fclose(f) != 0;
    free(text);
    if (bad)
        unlink(to);
    return bad ? -1 : 0;
}

/* Keeps a hard link to (or a copy of) every file about to be replaced; 0, or -1. */
static int keep_backups(out_file *files, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        struct stat st;
        if (lstat(files[i].final, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            fprintf(stderr, "nplus1gen: error: cannot write '%s': it is a directory\n",
                    files[i].final);
            return -1;
        }
        unlink(files[i].backup); /* a leftover of a killed run with our pid */
        files[i].existed = 1;
        if (link(files[i].final, files[i].backup) != 0 && copy_file(files[i].final,
                                                                   files[i].backup) != 0) {
            fprintf(stderr, "nplus1gen: error: cannot replace '%s': %s\n", files[i].final,
                    strerror(errno));
            return -1;
        }
    }
    return 0;
}

/*
 * Locks the folder of final (an exclusive flock on the folder itself, which
 * adds no file to it) against other nplus1gen runs writing there; blocks
 * until it has the lock. The descriptor to close, or -1 where the file
 * system has no flock (the files are then still replaced one by one).
 */
static int lock_folder(const char *final)
{
    const char *slash = strrchr(final, '/');
    char *dir = slash ? xstrndup(final, (size_t)(slash - final) + 1) : xstrdup(".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0)
        return -1;
    int rc;
    while ((rc = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
        ;
    if (rc != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/*
 * Writes every file to a temporary name beside it, then renames them all into
 * place while holding the output folder's lock (lock_folder), so two runs
 * into one folder leave one run's set, never a mix. Files being replaced are
 * kept (hard links) until every rename has succeeded, so a failure at any
 * step leaves every path as it was.
 */
int outdir_write(out_file *files, unsigned n)
{
    int rc = 0, lock = -1;
    unsigned written = 0, renamed = 0;
    for (unsigned i = 0; i < n; i++) {
        files[i].tmp = hidden_sibling(files[i].final, "tmp");
        files[i].backup = hidden_sibling(files[i].final, "bak");
        files[i].existed = 0;
    }
    for (; written < n && rc == 0; written++) {
        if (write_all(files[written].tmp, files[written].text) != 0) {
            fprintf(stderr, "nplus1gen: error: cannot write '%s': %s\n", files[written].final,
                    strerror(errno));
            rc = 1;
        }
    }
    if (rc == 0)
        lock = lock_folder(files[0].final);
    if (rc == 0 && keep_backups(files, n) != 0)
        rc = 1;
    for (; rc == 0 && renamed < n; renamed++) {
        if (rename(files[renamed].tmp, files[renamed].final) != 0) {
            fprintf(stderr, "nplus1gen: error: cannot rename to '%s': %s\n",
                    files[renamed].final, strerror(errno));
            rc = 1;
            break;
        }
    }
    if (rc != 0)
        restore(files, renamed);
    for (unsigned i = 0; i < n; i++) {
        if (i >= renamed && i < written)
            unlink(files[i].tmp);
        if (files[i].existed && (rc == 0 || i >= renamed))
            unlink(files[i].backup);
        free(files[i].tmp);
        free(files[i].backup);
    }
    if (lock >= 0)
        close(lock);
    return rc;
}

char *outdir_depfile(const char *outdir, const char *stem, const char *const *deps,
                     unsigned ndeps)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s/%s.nplus1.cl %s/%s_nplus1.h %s/%s_nplus1.c %s/%s.nplus1.json:", outdir,
              stem, outdir, stem, outdir, stem, outdir, stem);
    for (unsigned i = 0; i < ndeps; i++) {
        sb_puts(&sb, " \\\n  ");
        for (const char *p = deps[i]; *p; p++) {
            if (*p == ' ' || *p == '#' || *p == '$')
                sb_putc(&sb, *p == '$' ? '$' : '\\');
            sb_putc(&sb, *p);
        }
    }
    sb_putc(&sb, '\n');
    return sb_steal(&sb);
}
