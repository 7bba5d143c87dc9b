/* SPDX-License-Identifier: Apache-2.0 */
/*
 * set_cache.c - the measured choice kept across processes (docs/driver.md,
 * "The choice cache"). Per device, generated program (a hash of its text,
 * its build options, the kernel's name, strategy and dispatch) and launch-size
 * class (choose.h's classes), the candidate the chooser kept. A new set
 * starts each stored class on its stored choice, rechecked every recheck
 * period like any choice, so a process's first launches pay no trials.
 *
 * The folder: NPLUS1_CACHE_DIR, else $XDG_CACHE_HOME/nplus1, else
 * $HOME/.cache/nplus1; NPLUS1_CACHE=0 turns the cache off. One file per
 * (device, program), choice-<hash>.txt, written to a temporary file in the
 * folder and renamed, so that concurrent processes never leave a torn file
 * (the last writer's classes win). An entry that does not parse, or that
 * names another device, program or kernel (a hash collision), is ignored
 * with a note on stderr, never trusted.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "set_internal.h"

#define CACHE_MAGIC "nplus1-choice-cache 1"

static unsigned long long fnv1a(unsigned long long h, const char *s)
{
    for (; s && *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h ^ 0xff; /* a separator: "ab"+"c" and "a"+"bc" differ */
}

/* The device, one line: vendor, name, driver and OpenCL version. */
static void device_line(cl_device_id dev, char *out, size_t n)
{
    char vendor[128] = "", name[256] = "", driver[128] = "", version[128] = "";
    clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof vendor, vendor, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof driver, driver, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof version, version, NULL);
    snprintf(out, n, "%s | %s | %s | %s", vendor, name, driver, version);
    for (char *p = out; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

/* The cache's folder into out; 0 when the cache is off or there is no folder. */
static int cache_dir(char *out, size_t n)
{
    const char *off = getenv("NPLUS1_CACHE");
    if (off && !strcmp(off, "0"))
        return 0;
    const char *dir = getenv("NPLUS1_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int w = dir && *dir   ? snprintf(out, n, "%s", dir)
            : xdg && *xdg ? snprintf(out, n, "%s/nplus1", xdg)
            : home && *home ? snprintf(out, n, "%s/.cache/nplus1", home)
                          : -1;
    return w > 0 && (size_t)w < n;
}

void set_cache_key(nplus1rt_set *s, const char *build_options)
{
    s->cache_on = 0;
    char dir[900];
    if (s->split != NPLUS1RT_SPLIT_MEASURED || !cache_dir(dir, sizeof dir))
        return;
    device_line(s->dev, s->cache_device, sizeof s->cache_device);
    unsigned long long h = 14695981039346656037ULL;
    h = fnv1a(h, s->desc->source);
    h = fnv1a(h, build_options);
    h = fnv1a(h, s->desc->kernel);
    char shape[64];
    snprintf(shape, sizeof shape, "%d/%d", (int)s->desc->strategy, (int)s->dispatch);
    h = fnv1a(h, shape);
    s->cache_program = h;
    h = fnv1a(h, s->cache_device);
    snprintf(s->cache_path, sizeof s->cache_path, "%s/choice-%016llx.txt", dir, h);
    s->cache_on = 1;
}

void set_cache_note(const nplus1rt_set *s, const char *why)
{
    fprintf(stderr, "nplus1rt: note: the choice cache entry %s is ignored: %s\n", s->cache_path,
            why);
}

/* Reads the entry's header lines; 0 when they are this set's. */
static int read_header(const nplus1rt_set *s, FILE *f)
{
    char line[1024], want[1024];
    if (fgets(line, sizeof line, f))
        line[strcspn(line, "\n")] = '\0';
    else
        line[0] = '\0';
    if (strcmp(line, CACHE_MAGIC)) {
        set_cache_note(s, "it is not a choice cache file of this runtime");
        return -1;
    }
    snprintf(want, sizeof want, "device %s\n", s->cache_device);
    if (!fgets(line, sizeof line, f) || strcmp(line, want)) {
        set_cache_note(s, "it was written for another device");
        return -1;
    }
    snprintf(want, sizeof want, "program %016llx %s\n", s->cache_program, s->desc->kernel);
    if (!fgets(line, sizeof line, f) || strcmp(line, want)) {
        set_cache_note(s, "it was written for another generated program or kernel");
        return -1;
    }
    return 0;
}

void set_cache_read(nplus1rt_set *s)
{
    memset(s->cache_name, 0, sizeof s->cache_name);
    if (s->cache_on)
        set_cache_flush(); /* this process's choices are stored before they are read */
    FILE *f = s->cache_on ? fopen(s->cache_path, "r") : NULL;
    if (!f)
        return; /* off, or nothing stored yet */
    if (read_header(s, f) == 0) {
        char line[256], name[sizeof s->cache_name[0]];
        unsigned cls;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "class %u %15s", &cls, name) != 2 || cls >= CHOOSER_CLASSES) {
                set_cache_note(s, "a line names no size class and candidate");
                memset(s->cache_name, 0, sizeof s->cache_name);
                break;
            }
            memcpy(s->cache_name[cls], name, sizeof name);
        }
    }
    fclose(f);
}

/* Creates dir and its parents (mode 0700 for the cache's own folder). */
static int make_dirs(char *dir)
{
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int bad = mkdir(dir, 0755) != 0 && errno != EEXIST;
        *p = '/';
        if (bad)
            return -1;
    }
    return mkdir(dir, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

/*
 * The file is written on a thread of the runtime's own, not in the launch that chose:
 * a launch that stored its choice in place took 0.23-0.39 ms more than the one before it
 * on an H200 (the folder made, a file written and renamed), a 0.05-ms kernel's launch
 * five times over (docs/performance.md, session 10). The launch formats the entry and
 * queues it; the writer takes the entries in order (one file name a process: the
 * temporary file is named by the pid). A set's creation waits for the queue first, so a
 * set made after a choice reads it; so does the private cache's removal, and the
 * library's end (at exit, or when it is unloaded). Where no thread can be started the
 * launch writes the file itself, as before.
 */
typedef struct cache_job {
    struct cache_job *next;
    char path[sizeof ((nplus1rt_set *)0)->cache_path];
    char text[]; /* the whole entry */
} cache_job;

static pthread_mutex_t writer_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t writer_cv = PTHREAD_COND_INITIALIZER; /* a job queued, or one done */
static cache_job *queue_head, *queue_tail;
static int writer_running, writer_busy, writer_stop;
static pthread_t writer_thread;

/* Writes text to path through a temporary file renamed over it. */
static void write_entry(const char *path, const char *text)
{
    char dir[sizeof ((nplus1rt_set *)0)->cache_path], tmp[sizeof dir + 32];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if (!slash || make_dirs(dir) != 0)
        return; /* no cache where the folder cannot be made: the choice still runs */
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fputs(text, f);
    if (fclose(f) != 0 || rename(tmp, path) != 0)
        remove(tmp);
}

static void *writer_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&writer_mu);
    for (;;) {
        while (!queue_head && !writer_stop)
            pthread_cond_wait(&writer_cv, &writer_mu);
        cache_job *j = queue_head;
        if (!j)
            break; /* stopped, and nothing left */
        queue_head = j->next;
        if (!queue_head)
            queue_tail = NULL;
        writer_busy = 1;
        pthread_mutex_unlock(&writer_mu);
        write_entry(j->path, j->text);
        free(j);
        pthread_mutex_lock(&writer_mu);
        writer_busy = 0;
        pthread_cond_broadcast(&writer_cv);
    }
    pthread_mutex_unlock(&writer_mu);
    return NULL;
}

/* A forked child has no writer: it starts its own when it stores (the parent's queue is
 * the parent's to write). */
static void writer_after_fork(void)
{
    pthread_mutex_init(&writer_mu, NULL);
    pthread_cond_init(&writer_cv, NULL);
    queue_head = queue_tail = NULL;
    writer_running = writer_busy = writer_stop = 0;
}

void set_cache_flush(void)
{
    pthread_mutex_lock(&writer_mu);
    while (queue_head || writer_busy)
        pthread_cond_wait(&writer_cv, &writer_mu);
    pthread_mutex_unlock(&writer_mu);
}

/* The library's end: what is queued is written, and the writer ends. */
__attribute__((destructor)) static void writer_end(void)
{
    pthread_mutex_lock(&writer_mu);
    int running = writer_running;
    writer_stop = 1;
    pthread_cond_broadcast(&writer_cv);
    pthread_mutex_unlock(&writer_mu);
    if (running)
        pthread_join(writer_thread, NULL);
    pthread_mutex_lock(&writer_mu);
    writer_running = 0; /* a store after this writes in place */
    pthread_mutex_unlock(&writer_mu);
}

void set_cache_write(nplus1rt_set *s, unsigned cls, const char *name)
{
    if (!s->cache_on || cls >= CHOOSER_CLASSES || !strcmp(s->cache_name[cls], name))
        return;
    snprintf(s->cache_name[cls], sizeof s->cache_name[cls], "%s", name);
    char text[2048];
    int n = snprintf(text, sizeof text, CACHE_MAGIC "\ndevice %s\nprogram %016llx %s\n",
                     s->cache_device, s->cache_program, s->desc->kernel);
    for (unsigned k = 0; k < CHOOSER_CLASSES && n > 0 && (size_t)n < sizeof text; k++)
        if (s->cache_name[k][0])
            n += snprintf(text + n, sizeof text - (size_t)n, "class %u %s\n", k, s->cache_name[k]);
    if (n <= 0 || (size_t)n >= sizeof text)
        return; /* cannot happen with the names' and lines' bounds: store nothing */
    cache_job *j = malloc(sizeof *j + (size_t)n + 1);
    if (!j) {
        write_entry(s->cache_path, text);
        return;
    }
    j->next = NULL;
    snprintf(j->path, sizeof j->path, "%s", s->cache_path);
    memcpy(j->text, text, (size_t)n + 1);
    pthread_mutex_lock(&writer_mu);
    if (!writer_running && !writer_stop) {
        static int fork_handled;
        if (!fork_handled)
            fork_handled = pthread_atfork(NULL, NULL, writer_after_fork) == 0;
        writer_running = fork_handled &&
                         pthread_create(&writer_thread, NULL, writer_main, NULL) == 0;
    }
    if (!writer_running) { /* no thread: written here, as before */
        pthread_mutex_unlock(&writer_mu);
        write_entry(j->path, j->text);
        free(j);
        return;
    }
    if (queue_tail)
        queue_tail->next = j;
    else
        queue_head = j;
    queue_tail = j;
    pthread_cond_broadcast(&writer_cv);
    pthread_mutex_unlock(&writer_mu);
}

int set_cache_enabled(void)
{
    char dir[900];
    return cache_dir(dir, sizeof dir);
}

void set_cache_device_line(cl_device_id dev, char *out, size_t n)
{
    device_line(dev, out, n);
}

int set_cache_folder(char *out, size_t n)
{
    return cache_dir(out, n);
}

int nplus1rt_cache_folder(char *out, size_t n)
{
    return out && n ? cache_dir(out, n) : 0;
}

int nplus1rt_private_cache_open(char *dir, size_t n)
{
    const char *off = getenv("NPLUS1_CACHE"), *tmp = getenv("TMPDIR");
    if (!dir || !n)
        return 0;
    dir[0] = '\0';
    if (off && !strcmp(off, "0"))
        return 0;
    /* the device's calibration is the user's (calibrate.c): read where it lies */
    char user[1024];
    if (!getenv("NPLUS1_CALIBRATION_DIR") && cache_dir(user, sizeof user))
        setenv("NPLUS1_CALIBRATION_DIR", user, 1);
    int w = snprintf(dir, n, "%s/nplus1-choice-XXXXXX",
                     tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    if (w > 0 && (size_t)w < n && mkdtemp(dir)) {
        setenv("NPLUS1_CACHE_DIR", dir, 1);
        return 1;
    }
    dir[0] = '\0';
    setenv("NPLUS1_CACHE", "0", 1); /* no folder: no cache rather than the user's */
    return 0;
}

void nplus1rt_private_cache_remove(const char *dir)
{
    set_cache_flush(); /* no entry written after the folder is gone */
    DIR *d = dir && *dir ? opendir(dir) : NULL;
    if (!d)
        return;
    char path[1300];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        int w = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.' && w > 0 && (size_t)w < sizeof path)
            remove(path);
    }
    closedir(d);
    rmdir(dir);
}

int set_cache_make_dirs(char *dir)
{
    return make_dirs(dir);
}
