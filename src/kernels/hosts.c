/* Host validation in one call (issue 23, D106): what
 * uts58.hosts.domains.DomainRules._validate decides for a name of two labels or
 * more, with the data it decides from given at construction: the TLD set,
 * the compiled public-suffix rules (uts58.hosts.domains.PublicSuffixes), the label
 * pattern's fullmatch, ada's C API (an Ada of uts58.hosts.whatwg, the one
 * caller of ada-url), the label separators, the characters of a plain
 * ASCII label and the RFC 1035 lengths: no character of its own but the
 * "." of the A-label forms ada writes (the first separator given).  The
 * Python method is the reference; this type makes no decision of its own, and returns False wherever it would need one the
 * Python steps make (a name of one label, an ada answer it cannot split):
 * the caller goes on in Python then.  tests/test_host_kernel.py compares
 * the two on every conformance host, the bench corpora and generated names. */
#include "kernels.h"

typedef struct {
    PyObject_HEAD
    PyObject *ada;
    PyObject *tlds;   /* frozenset: lower-case A-label TLDs */
    PyObject *rules;  /* PublicSuffixes.rules, .nodes, .flat */
    PyObject *nodes;
    PyObject *flat;
    int accept_unknown;
    PyObject *label_fullmatch;  /* DomainRules.label.fullmatch */
    Py_UCS4 separators[8];      /* hosts.LABEL_SEPARATORS */
    int nseparators;
    unsigned char plain[128];   /* the characters of a plain ASCII label (D92) */
    Py_ssize_t max_label, max_domain;  /* octets of an A-label, of a name (RFC 1035) */
    /* D137: the classes of the plain IDN characters (uts58.tables.plain_idn),
     * a byte per BMP character and sorted (first, last, class) triples above
     * it; NULL: ada decides every label. */
    unsigned char *plain_bmp;
    Py_UCS4 *plain_astral;
    Py_ssize_t nplain_astral;
} Hosts;

static inline int
is_separator(const Hosts *self, Py_UCS4 c)
{
    for (int k = 0; k < self->nseparators; k++)
        if (c == self->separators[k])
            return 1;
    return 0;
}

/* Whether the ASCII str `s` has "xn--" at `i` (in any case with `fold`). */
static inline int
xn_at(const Py_UCS1 *s, Py_ssize_t n, Py_ssize_t i, int fold)
{
    const Py_UCS1 f = fold ? 0x20 : 0;
    return i + 4 <= n && (s[i] | f) == 'x' && (s[i + 1] | f) == 'n' && s[i + 2] == '-' && s[i + 3] == '-';
}

/* The labels of an ASCII name (dots only): their count, 0 when one is
 * longer than MAX_LABEL or empty (a label UTS #46 mapped away, "\u00ad.de":
 * no registrable domain has one). */
static Py_ssize_t
ascii_labels(const Hosts *self, const Py_UCS1 *s, Py_ssize_t n)
{
    Py_ssize_t count = 1, start = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i == n || s[i] == '.') {
            if (i == start || i - start > self->max_label)
                return 0;
            if (i < n)
                count++;
            start = i + 1;
        }
    }
    return count;
}

enum { NOT_PLAIN, PLAIN, PLAIN_MARK, PLAIN_RTL };  /* (uts58.tables.plain_idn's classes) */

/* D137: the class of `c` (not ASCII): whether UTS #46 leaves it as it is. */
static inline int
plain_idn(const Hosts *self, Py_UCS4 c)
{
    if (c < 0x10000)
        return self->plain_bmp[c];
    Py_ssize_t lo = 0, hi = self->nplain_astral;
    while (lo < hi) {  /* (triples: the last whose first is <= c) */
        Py_ssize_t mid = (lo + hi) / 2;
        if (self->plain_astral[3 * mid] <= c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && c <= self->plain_astral[3 * (lo - 1) + 1] ? (int)self->plain_astral[3 * (lo - 1) + 2] : NOT_PLAIN;
}

/* RFC 3492 §6.1, for the A-label of a label of plain characters. */
static Py_ssize_t
punycode_adapt(Py_ssize_t delta, Py_ssize_t points, int first)
{
    delta = first ? delta / 700 : delta / 2;
    delta += delta / points;
    Py_ssize_t k = 0;
    while (delta > ((36 - 1) * 26) / 2) {
        delta /= 36 - 1;
        k += 36;
    }
    return k + (36 * delta) / (delta + 38);
}

/* RFC 3492 §6.3: the Punycode of `label` (`len` code points, ASCII ones
 * already lowered) after "xn--", written at `out`; its length.  `out` has
 * room for 4 + 8 * len octets: a code point adds at most 7 digits (a delta
 * below 2^32) and the delimiter one. */
static Py_ssize_t
punycode(const Py_UCS4 *label, Py_ssize_t len, char *out)
{
    Py_ssize_t o = 0, basic = 0;
    memcpy(out, "xn--", 4);
    o = 4;
    for (Py_ssize_t i = 0; i < len; i++)
        if (label[i] < 0x80) {
            out[o++] = (char)label[i];
            basic++;
        }
    if (basic)
        out[o++] = '-';
    Py_UCS4 n = 0x80;
    Py_ssize_t delta = 0, bias = 72, h = basic;
    while (h < len) {
        Py_UCS4 m = 0x10FFFF;
        for (Py_ssize_t i = 0; i < len; i++)
            if (label[i] >= n && label[i] < m)
                m = label[i];
        delta += (Py_ssize_t)(m - n) * (h + 1);
        n = m;
        for (Py_ssize_t i = 0; i < len; i++) {
            if (label[i] < n)
                delta++;
            else if (label[i] == n) {
                Py_ssize_t q = delta;
                for (Py_ssize_t k = 36;; k += 36) {
                    Py_ssize_t t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
                    if (q < t)
                        break;
                    Py_ssize_t d = t + (q - t) % (36 - t);
                    out[o++] = (char)(d < 26 ? 'a' + d : '0' + d - 26);
                    q = (q - t) / (36 - t);
                }
                out[o++] = (char)(q < 26 ? 'a' + q : '0' + q - 26);
                bias = punycode_adapt(delta, h + 1, h == basic);
                delta = 0;
                h++;
            }
        }
        delta++;
        n++;
    }
    return o;
}

/* D137: the forms of a name (labels checked for emptiness and hyphens,
 * `nlabels` of them) whose characters are plain ASCII label characters or
 * plain IDN characters, without ada: the Unicode form is the name with its
 * separators "." and ASCII letters lowered, the A-label form that with each
 * label holding a non-ASCII character Punycode-encoded.  1: *ascii and *uni
 * set (new references); 0: not such a name, ada decides; 2: refused (a
 * label too long for an A-label, or refused by the label pattern); -1: an
 * error. */
static int
plain_idn_forms(const Hosts *self, PyObject *name, Py_ssize_t nlabels, PyObject **ascii, PyObject **uni)
{
    if (self->plain_bmp == NULL)
        return 0;
    int kind = PyUnicode_KIND(name);
    const void *data = PyUnicode_DATA(name);
    Py_ssize_t n = PyUnicode_GET_LENGTH(name), start = 0;
    Py_UCS4 maxchar = 0x7F;
    /* RFC 5893 §2 in a Bidi domain name: each label all R and AL, or ASCII
     * from a letter to a letter or digit; any other label there: ada's. */
    int bidi = 0, bidi_ok = 1, rtl = 0, not_rtl = 0, ascii_ltr = 1;
    for (Py_ssize_t i = 0; i <= n; i++) {
        Py_UCS4 c = i < n ? PyUnicode_READ(kind, data, i) : self->separators[0];
        if (i == n || is_separator(self, c)) {
            Py_UCS4 last = PyUnicode_READ(kind, data, i - 1);  /* (labels are not empty) */
            ascii_ltr &= last < 0x80 && ((last | 0x20) - 'a' < 26u || last - '0' < 10u);
            bidi |= rtl;
            bidi_ok &= (rtl && !not_rtl) || ascii_ltr;
            rtl = not_rtl = 0;
            ascii_ltr = 1;
            start = i + 1;
            continue;
        }
        int class = c < 0x80 ? (self->plain[c] ? PLAIN : NOT_PLAIN) : plain_idn(self, c);
        if (class == NOT_PLAIN || (class == PLAIN_MARK && i == start))
            return 0;  /* (UTS #46 maps it, or a label starts with a mark) */
        rtl |= class == PLAIN_RTL;
        not_rtl |= class != PLAIN_RTL;
        ascii_ltr &= c < 0x80 && (i > start || (c | 0x20) - 'a' < 26u);
        if (i == start && i + 4 <= n) {  /* ("xn--": ada checks that the label decodes) */
            Py_UCS4 c1 = PyUnicode_READ(kind, data, i + 1);
            if ((c | 0x20) == 'x' && (c1 | 0x20) == 'n' && PyUnicode_READ(kind, data, i + 2) == '-' &&
                PyUnicode_READ(kind, data, i + 3) == '-')
                return 0;
        }
        if (c > maxchar)
            maxchar = c;
    }
    if (bidi && !bidi_ok)
        return 0;
    PyObject *u = PyUnicode_New(n, maxchar);
    if (u == NULL)
        return -1;
    int ukind = PyUnicode_KIND(u);
    void *udata = PyUnicode_DATA(u);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        PyUnicode_WRITE(ukind, udata, i, is_separator(self, c) ? '.' : (c >= 'A' && c <= 'Z') ? c | 0x20 : c);
    }
    Py_UCS4 small_label[64];
    char small_out[4 + 8 * 64 + 1];
    char *out = PyMem_Malloc((size_t)nlabels * sizeof(small_out));
    if (out == NULL) {
        Py_DECREF(u);
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t o = 0;
    int result = 1;
    start = 0;
    for (Py_ssize_t i = 0; i <= n && result == 1; i++) {
        if (i < n && PyUnicode_READ(ukind, udata, i) != '.')
            continue;
        Py_ssize_t len = i - start;
        int wide = 0;
        for (Py_ssize_t j = start; j < i; j++)
            wide |= PyUnicode_READ(ukind, udata, j) >= 0x80;
        if (len > self->max_label) {
            result = 2;  /* (an A-label is longer than its label) */
            break;
        }
        if (len > 63) {
            result = 0;  /* (a longer limit than RFC 1035's: ada's answer) */
            break;
        }
        if (o)
            out[o++] = '.';
        if (!wide) {
            for (Py_ssize_t j = start; j < i; j++)
                out[o++] = (char)PyUnicode_READ(ukind, udata, j);
        }
        else {
            PyObject *piece = PyUnicode_Substring(u, start, i);
            PyObject *m = piece == NULL ? NULL : PyObject_CallOneArg(self->label_fullmatch, piece);
            Py_XDECREF(piece);
            if (m == NULL) {
                result = -1;
                break;
            }
            int refused = m == Py_None;
            Py_DECREF(m);
            if (refused) {
                result = 2;
                break;
            }
            for (Py_ssize_t j = 0; j < len; j++)
                small_label[j] = PyUnicode_READ(ukind, udata, start + j);
            Py_ssize_t w = punycode(small_label, len, small_out);
            memcpy(out + o, small_out, (size_t)w);
            o += w;
        }
        start = i + 1;
    }
    if (result == 1) {
        *ascii = PyUnicode_DecodeASCII(out, o, "strict");
        if (*ascii == NULL)
            result = -1;
        else
            *uni = Py_NewRef(u);
    }
    PyMem_Free(out);
    Py_DECREF(u);
    return result;
}

/* 1 when `ascii` (lower case, labels checked, `nlabels` of them, `tld` its
 * last) is not itself a public suffix: PublicSuffixes.registrable(ascii)
 * is not None.  0 when it is, -1 on an error. */
static int
registrable(const Hosts *self, PyObject *ascii, PyObject *tld, Py_ssize_t nlabels)
{
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(ascii);
    Py_ssize_t n = PyUnicode_GET_LENGTH(ascii);
    int flat = PySet_Contains(self->flat, tld);
    if (flat != 0)
        return flat;  /* (de, com: the public suffix is the TLD; a label is before it) */
    /* PublicSuffixes.public_length: from the TLD leftwards while a rule
     * could still match; exception, then wildcard, then exact rule. */
    Py_ssize_t found = self->accept_unknown ? 1 : 0, end = n;
    for (Py_ssize_t depth = 1; depth <= nlabels; depth++) {
        Py_ssize_t k = end - 1;
        while (k >= 0 && s[k] != '.')
            k--;
        PyObject *suffix = PyUnicode_Substring(ascii, k + 1, n);
        if (suffix == NULL)
            return -1;
        int r = PySet_Contains(self->nodes, suffix);
        if (r <= 0) {
            Py_DECREF(suffix);
            if (r < 0)
                return -1;
            break;
        }
        static const char *marks[2] = {"!", "*."};
        int matched = -1;
        for (int m = 0; m < 2 && matched < 0; m++) {
            PyObject *rule = PyUnicode_FromFormat("%s%U", marks[m], suffix);
            if (rule == NULL) {
                Py_DECREF(suffix);
                return -1;
            }
            r = PySet_Contains(self->rules, rule);
            Py_DECREF(rule);
            if (r < 0) {
                Py_DECREF(suffix);
                return -1;
            }
            if (r)
                matched = m;
        }
        if (matched == 0)
            found = depth - 1;
        else if (matched == 1)
            found = depth < nlabels ? depth + 1 : depth;
        else {
            r = PySet_Contains(self->rules, suffix);
            if (r < 0) {
                Py_DECREF(suffix);
                return -1;
            }
            if (r)
                found = depth;
        }
        Py_DECREF(suffix);
        end = k;
        if (k < 0)
            break;
    }
    return found > 0 && nlabels >= found + 1;
}

/* The last label of an A-label name (a new reference; NULL on an error). */
static PyObject *
last_label(PyObject *ascii)
{
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(ascii);
    Py_ssize_t n = PyUnicode_GET_LENGTH(ascii), dot = n - 1;
    while (dot >= 0 && s[dot] != '.')
        dot--;
    return PyUnicode_Substring(ascii, dot + 1, n);
}

/* The TLD decision: 1 when `tld` is one of the TLDs, or `any_tld` and it
 * is 2 to 63 ASCII letters (D52). */
static int
tld_ok(const Hosts *self, PyObject *tld, int any_tld)
{
    int r = PySet_Contains(self->tlds, tld);
    if (r != 0 || !any_tld)
        return r;
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(tld);
    Py_ssize_t len = PyUnicode_GET_LENGTH(tld);
    if (len < 2 || len > 63)
        return 0;
    for (Py_ssize_t i = 0; i < len; i++)
        if (s[i] < 'a' || s[i] > 'z')
            return 0;
    return 1;
}

/* The Unicode form of an A-label name with "xn--" labels, checked as
 * _validate checks it: every "xn--" label decodes to label characters and
 * the whole name encodes back to `ascii`.  A new reference; Py_None when
 * the name is refused; Py_False when the Python steps must decide. */
static PyObject *
unicode_form(const Hosts *self, PyObject *ascii, Py_ssize_t nlabels)
{
    PyObject *uni = u58_ada_to_unicode(self->ada, ascii);
    if (uni == NULL || uni == Py_False)
        return uni;
    PyObject *result = NULL;
    const Py_UCS1 *a = PyUnicode_1BYTE_DATA(ascii);
    Py_ssize_t an = PyUnicode_GET_LENGTH(ascii), un = PyUnicode_GET_LENGTH(uni);
    int ukind = PyUnicode_KIND(uni);
    const void *udata = PyUnicode_DATA(uni);
    Py_ssize_t ulabels = 1;
    for (Py_ssize_t i = 0; i < un; i++)
        ulabels += PyUnicode_READ(ukind, udata, i) == '.';
    if (ulabels != nlabels) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t as = 0, us = 0;
    for (Py_ssize_t label = 0; label < nlabels; label++) {
        Py_ssize_t ae = as, ue = us;
        while (ae < an && a[ae] != '.')
            ae++;
        while (ue < un && PyUnicode_READ(ukind, udata, ue) != '.')
            ue++;
        if (xn_at(a, an, as, 0)) {
            PyObject *u = PyUnicode_Substring(uni, us, ue);
            if (u == NULL)
                goto done;
            int same = ue - us == ae - as && PyUnicode_IS_ASCII(u) &&
                       memcmp(PyUnicode_1BYTE_DATA(u), a + as, (size_t)(ae - as)) == 0;
            PyObject *m = same ? Py_NewRef(Py_None) : PyObject_CallOneArg(self->label_fullmatch, u);
            Py_DECREF(u);
            if (m == NULL)
                goto done;
            int refused = m == Py_None;
            Py_DECREF(m);
            if (refused) {
                result = Py_NewRef(Py_None);
                goto done;
            }
        }
        as = ae + 1;
        us = ue + 1;
    }
    PyObject *back = u58_ada_domain(self->ada, uni);
    if (back == NULL || back == Py_False) {
        result = back;
        goto done;
    }
    int equal = back != Py_None && PyUnicode_Compare(back, ascii) == 0;
    Py_DECREF(back);
    if (PyErr_Occurred())
        goto done;
    result = equal ? Py_NewRef(uni) : Py_NewRef(Py_None);
done:
    Py_DECREF(uni);
    return result;
}

PyDoc_STRVAR(hosts_validate_doc,
             "validate(name, any_tld, single_label) -> (ascii, unicode) | None | False\n\n"
             "uts58.hosts.domains.DomainRules._validate(name, any_tld, single_label) in one\n"
             "call; False where the Python steps decide (one label, an ada answer\n"
             "that cannot be split, no ToUnicode in this ada-url).");

static PyObject *
Hosts_validate(Hosts *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "validate(name: str, any_tld, single_label)");
        return NULL;
    }
    PyObject *name = args[0];
    int any_tld = PyObject_IsTrue(args[1]), single_label = PyObject_IsTrue(args[2]);
    if (any_tld < 0 || single_label < 0)
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(name);
    if (n > 4 * self->max_domain)
        Py_RETURN_NONE;  /* (mapping never shortens a label; NFC joins at most three) */
    int kind = PyUnicode_KIND(name);
    const void *data = PyUnicode_DATA(name);
    Py_ssize_t nlabels = 1, start = 0;
    int plain = 1, dots_only = 1, bad = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        Py_UCS4 c = i < n ? PyUnicode_READ(kind, data, i) : self->separators[0];
        if (i == n || is_separator(self, c)) {
            if (i == start || PyUnicode_READ(kind, data, start) == '-' || PyUnicode_READ(kind, data, i - 1) == '-')
                bad = 1;  /* (an empty label, or one that starts or ends with "-") */
            if (i < n) {
                nlabels++;
                dots_only &= c == self->separators[0];
            }
            start = i + 1;
        }
        else if (c >= 0x80 || !self->plain[c])
            plain = 0;
    }
    if (nlabels < 2)
        return single_label ? Py_NewRef(Py_False) : Py_NewRef(Py_None);  /* (D54: Python's) */
    if (bad)
        Py_RETURN_NONE;
    plain &= dots_only;
    PyObject *ascii = NULL, *uni = NULL;
    if (plain) {
        /* D92: letters, digits and hyphens: UTS #46 only lowercases them. */
        const Py_UCS1 *s = PyUnicode_1BYTE_DATA(name);
        int xn = 0;
        for (Py_ssize_t i = 0; i < n && !xn; i++)
            xn = xn_at(s, n, i, 1);
        if (!xn) {
            if (n > self->max_domain || ascii_labels(self, s, n) == 0)
                Py_RETURN_NONE;
            ascii = PyUnicode_New(n, 127);
            if (ascii == NULL)
                return NULL;
            Py_UCS1 *out = PyUnicode_1BYTE_DATA(ascii);
            for (Py_ssize_t i = 0; i < n; i++)
                out[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (Py_UCS1)(s[i] | 0x20) : s[i];
            uni = Py_NewRef(ascii);
        }
    }
    if (ascii == NULL) {
        int fast = plain_idn_forms(self, name, nlabels, &ascii, &uni);
        if (fast < 0)
            return NULL;
        if (fast == 2)
            Py_RETURN_NONE;
    }
    if (ascii != NULL && uni != NULL && ascii != uni) {
        const Py_UCS1 *a = PyUnicode_1BYTE_DATA(ascii);
        Py_ssize_t an = PyUnicode_GET_LENGTH(ascii);
        if (an > self->max_domain || ascii_labels(self, a, an) != nlabels) {
            Py_DECREF(ascii);
            Py_DECREF(uni);
            Py_RETURN_NONE;
        }
    }
    if (ascii == NULL) {
        PyObject *joined = Py_NewRef(name);
        if (!dots_only) {
            Py_DECREF(joined);
            joined = PyUnicode_New(n, PyUnicode_MAX_CHAR_VALUE(name));
            if (joined == NULL)
                return NULL;
            int jkind = PyUnicode_KIND(joined);
            void *jdata = PyUnicode_DATA(joined);
            for (Py_ssize_t i = 0; i < n; i++) {
                Py_UCS4 c = PyUnicode_READ(kind, data, i);
                PyUnicode_WRITE(jkind, jdata, i, is_separator(self, c) ? '.' : c);
            }
        }
        ascii = u58_ada_domain(self->ada, joined);
        Py_DECREF(joined);
        if (ascii == NULL || ascii == Py_None || ascii == Py_False)
            return ascii;
        const Py_UCS1 *a = PyUnicode_1BYTE_DATA(ascii);
        Py_ssize_t an = PyUnicode_GET_LENGTH(ascii);
        if (an > self->max_domain || ascii_labels(self, a, an) != nlabels) {
            Py_DECREF(ascii);
            Py_RETURN_NONE;
        }
        int xn = 0;
        for (Py_ssize_t i = 0; i + 4 <= an && !xn; i++)
            xn = xn_at(a, an, i, 0);
        if (xn) {
            uni = unicode_form(self, ascii, nlabels);
            if (uni == NULL || uni == Py_None || uni == Py_False) {
                Py_DECREF(ascii);
                return uni;
            }
        }
        else
            uni = Py_NewRef(ascii);
    }
    PyObject *tld = last_label(ascii);  /* (once, for both decisions) */
    int r = tld == NULL ? -1 : tld_ok(self, tld, any_tld);
    if (r > 0)
        r = registrable(self, ascii, tld, nlabels);
    Py_XDECREF(tld);
    if (r <= 0) {
        Py_DECREF(ascii);
        Py_DECREF(uni);
        return r < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject *pair = PyTuple_New(2);
    if (pair == NULL) {
        Py_DECREF(ascii);
        Py_DECREF(uni);
        return NULL;
    }
    PyTuple_SET_ITEM(pair, 0, ascii);
    PyTuple_SET_ITEM(pair, 1, uni);
    return pair;
}

/* D137: the classes of the plain IDN characters from their flat (first,
 * last, class) triples: sorted, disjoint, none ASCII or a separator. */
static int
plain_idn_table(Hosts *self, PyObject *triples)
{
    Py_ssize_t count = PyTuple_GET_SIZE(triples);
    if (count % 3) {
        PyErr_SetString(PyExc_ValueError, "Hosts(): plain_idn holds (first, last, class) triples");
        return -1;
    }
    self->plain_bmp = PyMem_Calloc(0x10000, 1);
    self->plain_astral = PyMem_Malloc(sizeof(Py_UCS4) * (size_t)(count ? count : 1));
    if (self->plain_bmp == NULL || self->plain_astral == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    long previous = 0x7F;
    for (Py_ssize_t k = 0; k < count; k += 3) {
        long first = PyLong_AsLong(PyTuple_GET_ITEM(triples, k)), last = PyLong_AsLong(PyTuple_GET_ITEM(triples, k + 1));
        long class = PyLong_AsLong(PyTuple_GET_ITEM(triples, k + 2));
        if (PyErr_Occurred())
            return -1;
        if (first <= previous || last < first || last > 0x10FFFF || class < PLAIN || class > PLAIN_RTL) {
            PyErr_SetString(PyExc_ValueError, "Hosts(): plain_idn triples are sorted, disjoint, not ASCII, of a class");
            return -1;
        }
        for (long c = first; c <= last && c < 0x10000; c++) {
            if (is_separator(self, (Py_UCS4)c)) {
                PyErr_SetString(PyExc_ValueError, "Hosts(): a separator is no plain IDN character");
                return -1;
            }
            self->plain_bmp[c] = (unsigned char)class;
        }
        if (last >= 0x10000) {
            Py_UCS4 *t = self->plain_astral + 3 * self->nplain_astral++;
            t[0] = (Py_UCS4)(first < 0x10000 ? 0x10000 : first);
            t[1] = (Py_UCS4)last;
            t[2] = (Py_UCS4)class;
        }
        previous = last;
    }
    return 0;
}

/* Hosts(ada, tlds, rules, nodes, flat, accept_unknown, label_fullmatch,
 * separators, plain, max_label, max_domain[, plain_idn]): plain_idn, the
 * flat sorted (first, last, class) triples of uts58.tables.plain_idn (D137). */
static PyObject *
Hosts_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *ada, *tlds, *rules, *nodes, *flat, *fullmatch, *separators, *plain, *idn = NULL;
    int accept_unknown;
    Py_ssize_t max_label, max_domain;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Hosts() takes positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!pOUUnn|O!:Hosts", &u58_AdaType, &ada, &PyFrozenSet_Type, &tlds,
                          &PyFrozenSet_Type, &rules, &PyFrozenSet_Type, &nodes, &PyFrozenSet_Type, &flat,
                          &accept_unknown, &fullmatch, &separators, &plain, &max_label, &max_domain,
                          &PyTuple_Type, &idn))
        return NULL;
    if (!PyCallable_Check(fullmatch)) {
        PyErr_SetString(PyExc_TypeError, "Hosts(): label_fullmatch must be callable");
        return NULL;
    }
    Py_ssize_t nseparators = PyUnicode_GET_LENGTH(separators);
    if (nseparators < 1 || nseparators > 8 || PyUnicode_READ_CHAR(separators, 0) != '.' || max_label < 1 ||
        max_domain < max_label) {
        /* (the first separator is the "." of A-label forms, which ada writes) */
        PyErr_SetString(PyExc_ValueError, "Hosts(): 1-8 separators, '.' first; 0 < max_label <= max_domain");
        return NULL;
    }
    Hosts *self = (Hosts *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->nseparators = (int)nseparators;
    for (Py_ssize_t k = 0; k < nseparators; k++)
        self->separators[k] = PyUnicode_READ_CHAR(separators, k);
    for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(plain); k++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(plain, k);
        if (c >= 0x80 || is_separator(self, c)) {
            Py_DECREF(self);
            PyErr_SetString(PyExc_ValueError, "Hosts(): plain label characters are ASCII and no separator");
            return NULL;
        }
        self->plain[c] = 1;
    }
    self->max_label = max_label;
    self->max_domain = max_domain;
    if (idn != NULL && PyTuple_GET_SIZE(idn) > 0 && plain_idn_table(self, idn) < 0) {  /* (none: ada decides) */
        Py_DECREF(self);
        return NULL;
    }
    self->ada = Py_NewRef(ada);
    self->tlds = Py_NewRef(tlds);
    self->rules = Py_NewRef(rules);
    self->nodes = Py_NewRef(nodes);
    self->flat = Py_NewRef(flat);
    self->accept_unknown = accept_unknown;
    self->label_fullmatch = Py_NewRef(fullmatch);
    return (PyObject *)self;
}

static void
Hosts_dealloc(Hosts *self)
{
    PyMem_Free(self->plain_bmp);
    PyMem_Free(self->plain_astral);
    Py_XDECREF(self->ada);
    Py_XDECREF(self->tlds);
    Py_XDECREF(self->rules);
    Py_XDECREF(self->nodes);
    Py_XDECREF(self->flat);
    Py_XDECREF(self->label_fullmatch);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Hosts_methods[] = {
    {"validate", (PyCFunction)(void (*)(void))Hosts_validate, METH_FASTCALL, hosts_validate_doc},
    {NULL, NULL, 0, NULL},
};

PyTypeObject u58_HostsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "uts58.kernels._c.Hosts",
    .tp_basicsize = sizeof(Hosts),
    .tp_dealloc = (destructor)Hosts_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Host validation over one TLD set and the public-suffix rules (uts58.hosts.domains).",
    .tp_methods = Hosts_methods,
    .tp_new = Hosts_new,
};
