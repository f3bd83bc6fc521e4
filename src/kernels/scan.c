/* Where links may start (D96): the parts of the candidate scan of
 * uts58.detect.scanner._Scanner that run here when the C kernels are in use,
 * the Python scanner being the reference (tests/test_scan.py compares them).
 *
 * Scan(engine, label, schemes, special, named, cjk_first, cjk_last, tlds, quick,
 * email, classes, separators) holds,
 * for one finder:
 *   engine   the Engine whose §3.5.1 ends a token passed over;
 *   label    bytes of 8192: bit c set for each BMP label character (the
 *            class of the candidate pattern's lookahead after "://");
 *   schemes  the enabled schemes, lowercase ASCII, longest first;
 *   special  for each scheme, whether it is special (WHATWG);
 *   named    whether the pattern has alternatives that match a name before
 *            a ":" not followed by "//" (opaque schemes, bare localhost):
 *            then the skip stops at such a ":" after a character that may
 *            end a name;
 *   cjk_*    the ranges of runs._CJK_RANGES, sorted (for clauses);
 *   tlds     the finder's TLD set (lower-case A-labels);
 *   quick    whether D91's quick rejection of runs applies (the finder's
 *            _quick_tlds is that set, not None);
 *   email    the ASCII characters of Link_Email (LinkProperties.ascii_email);
 *   classes  for each ASCII character, the bits of the classes it is in, in
 *            the order of SCAN_CLASSES (runs._SCAN_CLASSES: scheme
 *            characters, userinfo ends, "@", ":", ...);
 *   separators  hosts.LABEL_SEPARATORS: the ASCII ones split labels, the
 *            others are the ideographic full stops of D22.
 *
 * skip(text, pos, floor) -> (pos, floor, at): pos is where the Python scan
 * would search for its next candidate.  From there the skip passes over
 * what Python would pass over, leaving the state Python would leave:
 *   - each "://" token that _schemed would pass over without a link (D53,
 *     D20), and the floor that gives;
 *   - (D106) the candidates Python refuses at a first look, which leave no
 *     state: an "@" whose domain ends with an ASCII label that is no TLD
 *     (_email: host_span finds no host, and no "scheme:" before the
 *     local-part nor ">" after the domain can make it a URI's userinfo or
 *     a Message-ID); a run of host characters that _rejected_run refuses
 *     (an "@" after it; with quick, an ASCII last label that is no TLD and
 *     no ideographic full stop since the scan resumed); with quick, an
 *     ASCII run with a label longer than 63, which holds no host.  Only
 *     BMP runs with "." for separators, and not with named (a "name:" may
 *     start anywhere before them).
 * It returns where the search goes on after the last pass-over (pos itself
 * if none: it bounds where a name may start, run_start in _bare), the
 * floor, and `at`, where the search may begin: the candidate it stopped at
 * (no match starts before it), or pos with named.  It decides nothing it
 * is not sure of: at any other character where a candidate may start ("@",
 * a label separator, ":" before one of them or after a name, "://" before
 * a host to look up) it stops.  Where the pattern cannot match at such a
 * character (a "." before a space) it goes on.  The candidate pattern's
 * alternatives start with ":", "@" or a separator, or match a name before
 * ":" not followed by "//".
 *
 * clauses(text, s, e) -> [(start, end), ...]: runs._clauses (D22). */
#include "kernels.h"

typedef struct {
    PyObject_HEAD
    Engine *engine;
    unsigned char label[0x10000 / 8];
    int named;
    Py_ssize_t nschemes;
    Py_ssize_t ncjk;
    uint32_t *cjk_first, *cjk_last;
    Py_ssize_t *lens;
    char **names;
    char *special;
    PyObject *tlds;
    int quick;
    unsigned char email[128];
    unsigned char separator[0x10000 / 8];  /* hosts.LABEL_SEPARATORS (all in the BMP) */
    uint32_t ascii[128];                    /* the classes of each ASCII character */
} Scan;

/* The classes of ASCII characters the scan decides with, given by Python
 * (runs._SCAN_CLASSES, by these names: the module's SCAN_CLASSES) as
 * the kernels are given their tables: no character here is a constant. */
static const char *const scan_classes[] = {
    "scheme",            /* runs._SCHEME_CHARS */
    "before_scheme",     /* runs._BEFORE_SCHEME: glues a scheme to the word before */
    "userinfo_end",      /* runs._USERINFO_ENDS (and white space) */
    "path_start",        /* hosts._PATH_START: what ends a host, and userinfo's lookahead */
    "ip_open",           /* what opens an IPv6 literal after "://" */
    "message_id_close",  /* what closes <local@domain> (D55) */
    "at",                /* the "@" of an address or of userinfo */
    "colon",             /* the ":" of "scheme:", "://", a password, a port */
    "slash",             /* the "//" of "://" */
};
#define NCLASSES ((int)(sizeof scan_classes / sizeof scan_classes[0]))
enum { SCHEME = 1, BEFORE_SCHEME = 2, USERINFO_END = 4, PATH_START = 8, IP_OPEN = 16, MESSAGE_ID_CLOSE = 32,
       AT = 64, COLON = 128, SLASH = 256 };

#define IS_SEP(s, c) ((c) <= 0xFFFF && ((s)->separator[(c) >> 3] >> ((c) & 7) & 1))
#define IS_LABEL(s, c) ((c) <= 0xFFFF && ((s)->label[(c) >> 3] >> ((c) & 7) & 1))
#define HAS(s, c, class) ((c) < 0x80 && ((s)->ascii[c] & (class)))
/* An ASCII separator (".", which labels split at), and the others: the
 * ideographic full stops of D22 (runs._IDEOGRAPHIC_STOPS). */
#define IS_DOT(s, c) ((c) < 0x80 && IS_SEP(s, c))
#define IS_STOP(s, c) ((c) >= 0x80 && IS_SEP(s, c))

/* c may end a name that "(?i:name)" matches: a scheme character, or any
 * non-ASCII one (case-insensitive matching takes U+212A for 'k', U+017F
 * for 's'). */
static inline int
may_end_name(const Scan *s, Py_UCS4 c)
{
    return c >= 0x80 || HAS(s, c, SCHEME);
}

/* c lowercased, for an ASCII c; 0 for any other (a scheme is ASCII: the
 * Python scanner takes none with U+212A KELVIN SIGN, which str.lower()
 * makes "k", since no URL parser does). */
static inline Py_UCS4
ascii_lower(Py_UCS4 c)
{
    if (c >= 'A' && c <= 'Z')
        return c + 32;
    return c < 0x80 ? c : 0;
}

/* The candidate pattern's lookahead after "://" at h holds for sure: a run
 * of BMP label characters then a separator or a supplementary character;
 * "["; or userinfo ("[^\s/?#@]*@").  0 where it fails or only another
 * alternative (localhost, a single label) could hold: the caller stops. */
static int
after_scheme(const Scan *s, int kind, const void *data, Py_ssize_t n, Py_ssize_t h)
{
    Py_ssize_t k = h;
    Py_UCS4 c = 0;
    for (; k < n; k++) {
        c = PyUnicode_READ(kind, data, k);
        if (!IS_LABEL(s, c))
            break;
    }
    if (k < n && (IS_SEP(s, c) || c > 0xFFFF))
        return 1;
    if (h < n && HAS(s, PyUnicode_READ(kind, data, h), IP_OPEN))
        return 1;
    for (k = h; k < n; k++) {
        c = PyUnicode_READ(kind, data, k);
        if (HAS(s, c, AT))
            return 1;
        if (HAS(s, c, PATH_START) || Py_UNICODE_ISSPACE(c))
            return 0;
    }
    return 0;
}

/* The enabled scheme that ends at "://" (at), as _schemed finds it: the
 * longest whose text, ASCII and lowercased, is it, at or after floor and not glued
 * to a letter, digit, '+' or '-' before it.  Its index, or -1. */
static Py_ssize_t
scheme_at(const Scan *s, int kind, const void *data, Py_ssize_t at, Py_ssize_t floor)
{
    for (Py_ssize_t k = 0; k < s->nschemes; k++) {
        Py_ssize_t len = s->lens[k], start = at - len;
        if (start < floor)
            continue;
        Py_ssize_t j = 0;
        while (j < len && ascii_lower(PyUnicode_READ(kind, data, start + j)) == (Py_UCS4)(unsigned char)s->names[k][j])
            j++;
        if (j < len)
            continue;
        if (start > 0) {
            Py_UCS4 before = PyUnicode_READ(kind, data, start - 1);
            if (HAS(s, before, BEFORE_SCHEME))
                continue;
        }
        return k;
    }
    return -1;
}

/* _schemed's userinfo ("[^\s@/?#\\\[\]]*@" at h) makes the URL one not
 * linked (D20: after a special scheme, with a password, or empty): 1; no
 * such userinfo, or a user name only (the host decides): 0. */
static int
refused_userinfo(const Scan *s, int kind, const void *data, Py_ssize_t n, Py_ssize_t h, int special)
{
    int colon = 0;
    for (Py_ssize_t k = h; k < n; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (HAS(s, c, AT))
            return special || colon || k == h;
        if (HAS(s, c, USERINFO_END) || Py_UNICODE_ISSPACE(c))
            return 0;
        colon |= HAS(s, c, COLON);
    }
    return 0;
}

/* "@" or a separator starts a candidate (or a run passed over) only before
 * a label character, "@", ":", a separator or a supplementary character. */
static inline int
starts_before(const Scan *self, Py_UCS4 next)
{
    return IS_LABEL(self, next) || next > 0xFFFF || HAS(self, next, AT | COLON) || IS_SEP(self, next);
}

/* The arguments (text, a, b) of a method that takes a str and two offsets
 * (usage: its message for a wrong count): 0, or -1 with the error set. */
static int
text_and_offsets(PyObject *const *args, Py_ssize_t nargs, const char *usage, Py_ssize_t *a, Py_ssize_t *b)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    if (!PyUnicode_Check(args[0])) {
        PyErr_Format(PyExc_TypeError, "text must be a str, not %.100s", Py_TYPE(args[0])->tp_name);
        return -1;
    }
    *a = PyLong_AsSsize_t(args[1]);
    *b = PyLong_AsSsize_t(args[2]);
    return (*a == -1 || *b == -1) && PyErr_Occurred() ? -1 : 0;
}

/* Whether the ASCII label text[a:b] (lowercased) is one of the TLDs: 1, 0,
 * or -1 on an error.  A label with a non-ASCII character: 2 (not decided). */
static int
is_tld(const Scan *self, int kind, const void *data, Py_ssize_t a, Py_ssize_t b)
{
    char small[64];
    for (Py_ssize_t k = a; k < b; k++)
        if (PyUnicode_READ(kind, data, k) >= 0x80)
            return 2;
    if (b - a > (Py_ssize_t)sizeof(small))
        return 0;  /* (no TLD is longer than 63) */
    for (Py_ssize_t k = a; k < b; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        small[k - a] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    PyObject *label = PyUnicode_DecodeASCII(small, b - a, "strict");
    if (label == NULL)
        return -1;
    int r = PySet_Contains(self->tlds, label);
    Py_DECREF(label);
    return r;
}

/* The end of the run of host characters from i (run_end), when it holds
 * only BMP label characters and "." (IS_DOT; else -1: Python decides). */
static Py_ssize_t
plain_run_end(const Scan *self, int kind, const void *data, Py_ssize_t n, Py_ssize_t i)
{
    for (; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (IS_DOT(self, c) || IS_LABEL(self, c))
            continue;
        if (IS_STOP(self, c) || c > 0xFFFF)
            return -1;  /* (an ideographic full stop, D22; a supplementary character) */
        break;
    }
    return i;
}

/* Whether the run text[s:e] (its trailing dots ignored) ends with an ASCII
 * label that is no TLD (runs._ends_without_tld): 1, 0, -1 on an error. */
static int
ends_without_tld(const Scan *self, int kind, const void *data, Py_ssize_t s, Py_ssize_t e)
{
    while (e > s && IS_DOT(self, PyUnicode_READ(kind, data, e - 1)))
        e--;
    Py_ssize_t k = e;
    while (k > s && !IS_DOT(self, PyUnicode_READ(kind, data, k - 1)))
        k--;
    int r = is_tld(self, kind, data, k, e);
    return r < 0 ? -1 : r == 0;
}

/* The "@" at `at` (before a label run and "."): where Python's search goes
 * on when _email refuses it at once (at + 1), 0 when Python must look,
 * -1 on an error. */
static Py_ssize_t
passed_email(const Scan *self, int kind, const void *data, Py_ssize_t n, Py_ssize_t at)
{
    Py_ssize_t k = at + 1;
    while (k < n && IS_LABEL(self, PyUnicode_READ(kind, data, k)))
        k++;
    if (k == n || !IS_DOT(self, PyUnicode_READ(kind, data, k)))
        return 0;  /* (another alternative of the pattern, or a separator that may cut clauses) */
    Py_ssize_t e = plain_run_end(self, kind, data, n, at + 1);
    if (e < 0 || (e < n && HAS(self, PyUnicode_READ(kind, data, e), MESSAGE_ID_CLOSE)))
        return 0;  /* (">": maybe a Message-ID, D55) */
    /* "scheme:" right before the local-part makes it a URI's userinfo (D53):
     * the run of ASCII Link_Email characters before "@" must not follow ":"
     * (nor a non-ASCII character, where the local-part may go on). */
    Py_ssize_t b = at;
    while (b > 0) {
        Py_UCS4 c = PyUnicode_READ(kind, data, b - 1);
        if (c >= 0x80 || !self->email[c])
            break;
        b--;
    }
    if (b > 0) {
        Py_UCS4 c = PyUnicode_READ(kind, data, b - 1);
        if (HAS(self, c, COLON) || c >= 0x80)
            return 0;
    }
    int r = ends_without_tld(self, kind, data, at + 1, e);
    return r < 0 ? -1 : r ? at + 1 : 0;
}

/* The run of host characters at the separator i (before a label
 * character): its end when _rejected_run refuses it (lo: where the scan
 * resumed, or the floor), 0 when Python must look, -1 on an error. */
static Py_ssize_t
passed_run(const Scan *self, int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t lo)
{
    if (!IS_DOT(self, PyUnicode_READ(kind, data, i)))
        return 0;
    Py_ssize_t e = plain_run_end(self, kind, data, n, i + 1);
    if (e < 0)
        return 0;
    if (e < n && HAS(self, PyUnicode_READ(kind, data, e), AT))
        return e;  /* (a local-part: the "@" decides) */
    if (!self->quick)
        return 0;
    for (Py_ssize_t k = lo; k < i; k++)
        if (IS_STOP(self, PyUnicode_READ(kind, data, k)))
            return 0;  /* (an ideographic full stop may cut the run into clauses, D22) */
    int r = ends_without_tld(self, kind, data, i, e);
    if (r != 0)
        return r < 0 ? -1 : e;
    /* An ASCII name with a label longer than 63 (RFC 1035) is no host, and
     * no clause of it either: from where run_start would start it, back to
     * lo, as _bare reads it. */
    Py_ssize_t a = i, longest = 0, label = 0;
    while (a > lo) {
        Py_UCS4 c = PyUnicode_READ(kind, data, a - 1);
        if (!IS_DOT(self, c) && !IS_LABEL(self, c))
            break;
        a--;
    }
    for (Py_ssize_t k = a; k < e; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (c >= 0x80)
            return 0;
        label = IS_DOT(self, c) ? 0 : label + 1;
        if (label > longest)
            longest = label;
    }
    return longest > 63 ? e : 0;
}

static PyObject *
Scan_skip(Scan *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t pos, floor;
    if (text_and_offsets(args, nargs, "skip() takes 3 arguments (text, pos, floor)", &pos, &floor) < 0)
        return NULL;
    PyObject *text = args[0];
    const int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (pos < 0 || pos > n || floor < 0) {
        PyErr_SetString(PyExc_ValueError, "pos is outside text");
        return NULL;
    }
    Py_ssize_t i = pos, resumed = pos;  /* where the last pass-over ended */
    while (i < n) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (!HAS(self, c, AT | COLON) && !IS_SEP(self, c)) {
            i++;
            continue;
        }
        Py_UCS4 next = i + 1 < n ? PyUnicode_READ(kind, data, i + 1) : 0;
        if (!HAS(self, c, COLON)) {
            if (!starts_before(self, next)) {
                i++;
                continue;
            }
            if (!IS_LABEL(self, next) || self->named)
                break;  /* (named: a "name:" may start anywhere before it; Python's) */
            Py_ssize_t to = HAS(self, c, AT) ? passed_email(self, kind, data, n, i)
                                     : passed_run(self, kind, data, n, i, resumed > floor ? resumed : floor);
            if (to < 0)
                return NULL;
            if (to == 0)
                break;
            i = resumed = to;  /* (refused at its first look, as Python would) */
            continue;
        }
        if (!HAS(self, next, SLASH) || i + 2 >= n || !HAS(self, PyUnicode_READ(kind, data, i + 2), SLASH)) {
            if (self->named && i > 0 && may_end_name(self, PyUnicode_READ(kind, data, i - 1)))
                break;  /* "tel:", "localhost:8080" may end here: Python's */
            if (HAS(self, next, AT | COLON) || IS_SEP(self, next))
                break;  /* ":.", ":@", "::": the pattern's runs, Python's */
            i++;
            continue;  /* no alternative starts at this ":" */
        }
        const Py_ssize_t at = i, h = i + 3;
        if (!after_scheme(self, kind, data, n, h))
            break;
        if (at == 0 || !HAS(self, PyUnicode_READ(kind, data, at - 1), SCHEME)) {
            i = resumed = h;  /* "://" after no scheme */
            continue;
        }
        Py_ssize_t k = scheme_at(self, kind, data, at, floor);
        if (k >= 0) {
            if (h < n && HAS(self, PyUnicode_READ(kind, data, h), IP_OPEN))
                break;  /* an IPv6 literal: Python's */
            if (!refused_userinfo(self, kind, data, n, h, self->special[k]))
                break;  /* a host to look up: Python's */
        }
        /* D53, D20: passed over whole, to where §3.5.1 ends it read as a path */
        Py_ssize_t end = h;
        if (h < n) {
            Py_UCS4 first = PyUnicode_READ(kind, data, h);
            end = u58_find_link_end(self->engine, text, h, !HAS(self, first, PATH_START));
        }
        if (end > floor)
            floor = end;
        i = resumed = end;
    }
    /* (and where the search may begin: the candidate it stopped at, which no
     * match starts before, or where it resumed with names, which may start
     * anywhere before their ":") */
    if (i >= n)
        return Py_BuildValue("(nnn)", n, floor, n);
    return Py_BuildValue("(nnn)", resumed, floor, self->named ? resumed : i);
}

static inline int
is_cjk(const Scan *self, Py_UCS4 c)
{
    Py_ssize_t k = ranges_up_to(self->cjk_first, self->ncjk, c);
    return k > 0 && c <= self->cjk_last[k - 1];
}

static int
append_span(PyObject *list, Py_ssize_t a, Py_ssize_t b)
{
    PyObject *span = Py_BuildValue("(nn)", a, b);
    if (span == NULL)
        return -1;
    int r = PyList_Append(list, span);
    Py_DECREF(span);
    return r;
}

/* D22: text[s:e] cut at each ideographic full stop between a label with
 * CJK characters and a label of ASCII (either order), as
 * runs._clauses: one pass, each label's flags known when the
 * separator after it is reached. */
static PyObject *
Scan_clauses(Scan *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t s, e;
    if (text_and_offsets(args, nargs, "clauses() takes 3 arguments (text, s, e)", &s, &e) < 0)
        return NULL;
    PyObject *text = args[0];
    const int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (s < 0 || e < s || e > PyUnicode_GET_LENGTH(text)) {
        PyErr_SetString(PyExc_ValueError, "s:e is outside text");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Py_ssize_t start = s, label = s, stop = -1;   /* stop: an ideographic stop just before label */
    int before_ascii = 0, before_cjk = 0, before_empty = 1, ascii = 1, cjk = 0;
    for (Py_ssize_t i = s; i <= e; i++) {
        Py_UCS4 c = i < e ? PyUnicode_READ(kind, data, i) : 0;
        if (i < e && !IS_SEP(self, c)) {
            ascii &= c < 0x80;
            cjk |= c >= 0x1100 && is_cjk(self, c);
            continue;
        }
        int empty = i == label;
        if (stop >= 0 && !before_empty && !empty && ((before_ascii && cjk) || (ascii && before_cjk))) {
            if (append_span(out, start, stop) < 0)
                goto fail;
            start = stop + 1;
        }
        stop = i < e && IS_STOP(self, c) ? i : -1;
        before_ascii = ascii, before_cjk = cjk, before_empty = empty;
        label = i + 1, ascii = 1, cjk = 0;
    }
    if (append_span(out, start, e) < 0)
        goto fail;
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static void
Scan_dealloc(Scan *self)
{
    for (Py_ssize_t k = 0; k < self->nschemes; k++)
        PyMem_Free(self->names ? self->names[k] : NULL);
    PyMem_Free(self->names);
    PyMem_Free(self->lens);
    PyMem_Free(self->special);
    PyMem_Free(self->cjk_first);
    PyMem_Free(self->cjk_last);
    Py_XDECREF(self->engine);
    Py_XDECREF(self->tlds);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Scan_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *engine, *label, *schemes, *special, *cjk_first, *cjk_last, *tlds, *email, *classes, *separators;
    int named, quick;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Scan() takes positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!SO!O!pO!O!O!pUO!U:Scan", &u58_EngineType, &engine, &label, &PyTuple_Type,
                          &schemes, &PyTuple_Type, &special, &named, &PyTuple_Type, &cjk_first, &PyTuple_Type,
                          &cjk_last, &PyFrozenSet_Type, &tlds, &quick, &email, &PyTuple_Type, &classes, &separators))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(schemes);
    if (PyBytes_GET_SIZE(label) != 0x10000 / 8 || PyTuple_GET_SIZE(special) != count) {
        PyErr_SetString(PyExc_ValueError, "Scan(): malformed tables");
        return NULL;
    }
    Scan *self = (Scan *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->engine = (Engine *)Py_NewRef(engine);
    self->named = named;
    self->tlds = Py_NewRef(tlds);
    self->quick = quick;
    uint32_t *table = u58_u32_array(classes, 128);
    if (table == NULL)
        goto fail;
    memcpy(self->ascii, table, sizeof self->ascii);
    PyMem_Free(table);
    for (int c = 0; c < 128; c++)
        if (self->ascii[c] >> NCLASSES) {
            PyErr_SetString(PyExc_ValueError, "Scan(): a class bit beyond SCAN_CLASSES");
            goto fail;
        }
    for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(separators); k++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(separators, k);
        if (c > 0xFFFF || c == 0) {
            PyErr_SetString(PyExc_ValueError, "Scan(): separators are BMP characters");
            goto fail;
        }
        self->separator[c >> 3] |= (unsigned char)(1 << (c & 7));
    }
    for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(email); k++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(email, k);
        if (c >= 0x80 || HAS(self, c, COLON)) {
            /* (passed_email walks back over them to see the ":" of a scheme) */
            PyErr_SetString(PyExc_ValueError, "Scan(): email holds ASCII Link_Email characters, never a colon");
            goto fail;
        }
        self->email[c] = 1;
    }
    self->ncjk = PyTuple_GET_SIZE(cjk_first);
    if ((self->cjk_first = u58_u32_array(cjk_first, self->ncjk)) == NULL ||
        (self->cjk_last = u58_u32_array(cjk_last, self->ncjk)) == NULL)
        goto fail;
    for (Py_ssize_t k = 0; k < self->ncjk; k++)
        if (self->cjk_first[k] < 0x1100 || self->cjk_last[k] < self->cjk_first[k] ||
            (k > 0 && self->cjk_first[k] <= self->cjk_last[k - 1])) {
            PyErr_SetString(PyExc_ValueError, "Scan(): CJK ranges must be sorted, from U+1100");
            goto fail;
        }
    memcpy(self->label, PyBytes_AS_STRING(label), sizeof self->label);
    for (Py_UCS4 c = 0; c < 0x10000; c++)
        if (IS_SEP(self, c) && IS_LABEL(self, c)) {
            PyErr_SetString(PyExc_ValueError, "Scan(): a separator is no label character");
            goto fail;
        }
    self->lens = PyMem_Calloc((size_t)count + 1, sizeof(Py_ssize_t));
    self->names = PyMem_Calloc((size_t)count + 1, sizeof(char *));
    self->special = PyMem_Calloc((size_t)count + 1, 1);
    if (self->lens == NULL || self->names == NULL || self->special == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *name = PyTuple_GET_ITEM(schemes, k);
        Py_ssize_t len;
        const char *chars = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &len) : NULL;
        if (chars == NULL || !PyUnicode_IS_ASCII(name) || len < 1 || (k > 0 && len > self->lens[k - 1])) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "Scan(): schemes are ASCII str, longest first");
            goto fail;
        }
        for (Py_ssize_t j = 0; j < len; j++)
            if ((chars[j] >= 'A' && chars[j] <= 'Z') || !HAS(self, (Py_UCS4)(unsigned char)chars[j], SCHEME)) {
                PyErr_SetString(PyExc_ValueError, "Scan(): schemes are lowercase scheme characters");
                goto fail;
            }
        if ((self->names[k] = PyMem_Malloc((size_t)len + 1)) == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        memcpy(self->names[k], chars, (size_t)len + 1);
        self->lens[k] = len;
        self->nschemes = k + 1;
        int flag = PyObject_IsTrue(PyTuple_GET_ITEM(special, k));
        if (flag < 0)
            goto fail;
        self->special[k] = (char)flag;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyMethodDef Scan_methods[] = {
    {"skip", (PyCFunction)(void (*)(void))Scan_skip, METH_FASTCALL,
     "skip(text, pos, floor) -> (pos, floor, at)\n\n"
     "From pos, pass over what holds no candidate, each \"scheme://\" token\n"
     "not linked (D53, D20), as scanner._Scanner._schemed, and the candidates\n"
     "Python refuses at a first look (D106); stop at the first candidate Python\n"
     "must look at.  Where the scan resumes, the floor, and where to search from."},
    {"clauses", (PyCFunction)(void (*)(void))Scan_clauses, METH_FASTCALL,
     "clauses(text, s, e) -> list of (start, end)\n\n"
     "text[s:e] cut at the ideographic full stops between CJK and ASCII labels (D22)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject u58_ScanType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "uts58.kernels._c.Scan",
    .tp_basicsize = sizeof(Scan),
    .tp_dealloc = (destructor)Scan_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Parts of the candidate scan for one finder: scheme tokens not linked (D53, D20), clauses (D22).",
    .tp_methods = Scan_methods,
    .tp_new = Scan_new,
};

/* The names of the classes Scan() takes, in the order of their bits. */
PyObject *
u58_scan_classes(void)
{
    PyObject *names = PyTuple_New(NCLASSES);
    if (names == NULL)
        return NULL;
    for (int k = 0; k < NCLASSES; k++) {
        PyObject *name = PyUnicode_FromString(scan_classes[k]);
        if (name == NULL) {
            Py_DECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, k, name);
    }
    return names;
}
