/* ada's C API: one call parses and splits a URL (and, for format_url,
 * decodes and escapes its path, query and fragment with the kernels).
 *
 * WHATWG URL parsing stays ada's (ada-url): this type only calls the C API
 * of ada (ada_c.h) through the addresses of the functions in ada-url's own
 * compiled module, which uts58.hosts.whatwg takes from cffi after checking their
 * C signatures and the layouts of the two structs below.  One call then
 * parses and splits a URL without a Python-level round trip per getter. */
#include "kernels.h"

typedef struct {
    const char *data;
    size_t length;
} ada_string;

typedef ada_string ada_owned_string;  /* (the same layout, freed by ada) */

typedef struct {
    uint32_t protocol_end, username_end, host_start, host_end, port, pathname_start, search_start, hash_start;
} ada_url_components;

#define ADA_OMITTED 0xFFFFFFFFu

typedef struct {
    PyObject_HEAD
    void *(*parse)(const char *, size_t);
    bool (*is_valid)(void *);
    ada_string (*get_href)(void *);
    const ada_url_components *(*get_components)(void *);
    void (*free)(void *);
    ada_owned_string (*idna_to_unicode)(const char *, size_t);
    void (*free_owned_string)(ada_owned_string);
    PyObject *components;  /* the namedtuple class of parse() */
    PyObject *display;     /* the namedtuple class of parse_display() */
} Ada;

static PyObject *
ascii_slice(const char *href, uint32_t start, uint32_t end)
{
    if (end < start) {  /* offsets checked in Ada_parse; never trust a wrap */
        PyErr_SetString(PyExc_RuntimeError, "ada returned inconsistent URL component offsets");
        return NULL;
    }
    return PyUnicode_DecodeASCII(href + start, end - start, "strict");
}

/* A special URL parsed by ada and split: offsets into its href (ASCII).
 * Absent parts have start == end == NONE_AT. */
#define NONE_AT 0xFFFFFFFFu
typedef struct {
    void *obj;                  /* ada's, freed by split_free */
    const char *href;
    uint32_t n;                 /* length of href */
    uint32_t scheme_end;        /* href[0:scheme_end] is the scheme */
    uint32_t user_start, user_end;  /* userinfo without "@", or NONE_AT */
    uint32_t host_start, host_end;
    uint32_t port_end;          /* href[host_end:port_end] is ":port" or empty */
    uint32_t path_end;          /* the pathname is href[port_end:path_end] */
    uint32_t query_start, query_end;  /* without "?" */
    uint32_t fragment_start;    /* without "#"; it ends at n */
} Split;

/* Parse `size` bytes of UTF-8 with ada: 1 split, 0 not a valid URL, -1 a
 * valid URL without "scheme://" or with offsets that are not consistent
 * (the callers leave it to the Python code), -2 an error.  Any URL
 * serialized as "scheme://..." is split; the callers only pass special ones. */
static int
split_url(const Ada *ada, const char *data, Py_ssize_t size, Split *sp)
{
    sp->obj = ada->parse(data, (size_t)size);
    if (sp->obj == NULL) {
        PyErr_NoMemory();
        return -2;
    }
    if (!ada->is_valid(sp->obj))
        return 0;
    ada_string h = ada->get_href(sp->obj);
    const ada_url_components *c = ada->get_components(sp->obj);
    const char *href = h.data;
    /* "scheme://" and every offset inside the href, compared in 64 bits so
     * that no offset ada could return wraps around. */
    const uint64_t n = h.length, pe = c->protocol_end, hs = c->host_start, he = c->host_end;
    const uint64_t ps = c->pathname_start, ss = c->search_start, fs = c->hash_start;
    if (n > 0xFFFFFFF0u || pe < 1 || pe + 2 > n || href[pe - 1] != ':' || href[pe] != '/' ||
        href[pe + 1] != '/' || hs < pe + 2 || hs > he || he > ps || ps > n ||
        (ss != ADA_OMITTED && (ss < ps || ss >= n)) || (fs != ADA_OMITTED && (fs < ps || fs >= n)))
        return -1;
    /* The characters the offsets stand for: were ada to change what an offset
     * means while keeping the struct (which the signature check of
     * uts58.hosts.whatwg cannot see), the split would be wrong rather than refused. */
    if (ps == n || href[ps] != '/' || (ps > he && href[he] != ':') ||
        (ss != ADA_OMITTED && (href[ss] != '?' || (fs != ADA_OMITTED && ss > fs))) ||
        (fs != ADA_OMITTED && href[fs] != '#'))
        return -1;
    /* From here every offset is at most n < 2^32. */
    uint32_t host_start = (uint32_t)hs, end = (uint32_t)n;
    sp->href = href;
    sp->n = (uint32_t)n;
    sp->scheme_end = (uint32_t)pe - 1;
    sp->user_start = sp->user_end = NONE_AT;
    if (hs < he && href[hs] == '@') {
        sp->user_start = (uint32_t)pe + 2;
        sp->user_end = host_start++;
    }
    sp->host_start = host_start;
    sp->host_end = (uint32_t)he;
    sp->port_end = (uint32_t)ps;
    sp->fragment_start = NONE_AT;
    if (fs != ADA_OMITTED) {
        sp->fragment_start = (uint32_t)fs + 1;
        end = (uint32_t)fs;
    }
    sp->query_start = sp->query_end = NONE_AT;
    if (ss != ADA_OMITTED && ss < end) {
        sp->query_start = (uint32_t)ss + 1;
        sp->query_end = end;
        end = (uint32_t)ss;
    }
    sp->path_end = end;
    return 1;
}

static void
split_free(const Ada *ada, Split *sp)
{
    if (sp->obj != NULL)
        ada->free(sp->obj);
    sp->obj = NULL;
}

static PyObject *
ascii_slice_or_none(const char *href, uint32_t start, uint32_t end)
{
    return start == NONE_AT ? Py_NewRef(Py_None) : ascii_slice(href, start, end);
}

/* The UTF-8 of a str URL; NULL with no exception set for a str with lone
 * surrogates (which no URL holds), NULL with one for any other failure. */
static const char *
url_utf8(PyObject *url, Py_ssize_t *size)
{
    const char *data = PyUnicode_AsUTF8AndSize(url, size);
    if (data == NULL && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
        PyErr_Clear();
    return data;
}

/* href, scheme, userinfo (or None), host, port (or None): the first five
 * fields of both Components and Display; 0, or -1 with an exception. */
static int
head_fields(const Split *sp, PyObject **fields)
{
    const char *href = sp->href;
    if ((fields[0] = ascii_slice(href, 0, sp->n)) == NULL || (fields[1] = ascii_slice(href, 0, sp->scheme_end)) == NULL ||
        (fields[2] = ascii_slice_or_none(href, sp->user_start, sp->user_end)) == NULL ||
        (fields[3] = ascii_slice(href, sp->host_start, sp->host_end)) == NULL ||
        (fields[4] = sp->port_end > sp->host_end ? ascii_slice(href, sp->host_end + 1, sp->port_end)
                                                 : Py_NewRef(Py_None)) == NULL)
        return -1;
    return 0;
}

/* cls(*fields), a namedtuple, as cls._make does.  Once the tuple exists it
 * owns the n fields (they are set to NULL); before that they stay the
 * caller's to release. */
static PyObject *
make_tuple(PyObject *cls, PyObject **fields, int n)
{
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL)
        return NULL;
    for (int k = 0; k < n; k++) {
        PyTuple_SET_ITEM(tuple, k, fields[k]);
        fields[k] = NULL;
    }
    PyObject *args = PyTuple_Pack(1, tuple);
    Py_DECREF(tuple);
    if (args == NULL)
        return NULL;
    PyObject *result = PyTuple_Type.tp_new((PyTypeObject *)cls, args, NULL);
    Py_DECREF(args);
    return result;
}

PyDoc_STRVAR(ada_parse_doc,
"parse(url) -> Components | None | False\n\n"
"Parse url with ada: its components (the fields of uts58.hosts.whatwg.Components),\n"
"None when it is not a valid URL, False when it is valid but not a special\n"
"URL with '//' after its scheme (the caller splits it another way).");

static PyObject *
Ada_parse(Ada *self, PyObject *url)
{
    Py_ssize_t size;
    if (!PyUnicode_Check(url)) {
        PyErr_Format(PyExc_TypeError, "url must be a str, not %.100s", Py_TYPE(url)->tp_name);
        return NULL;
    }
    const char *data = url_utf8(url, &size);
    if (data == NULL)
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);  /* (lone surrogates: not a URL) */
    Split sp = {0};
    PyObject *fields[8] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    PyObject *result = NULL;
    switch (split_url(self, data, size, &sp)) {
    case 0:
        result = Py_NewRef(Py_None);
        goto done;
    case -1:
        result = Py_NewRef(Py_False);  /* valid, but not split here */
        goto done;
    case -2:
        goto done;
    }
    const char *href = sp.href;
    if (head_fields(&sp, fields) < 0 || (fields[5] = ascii_slice(href, sp.port_end, sp.path_end)) == NULL ||
        (fields[6] = ascii_slice_or_none(href, sp.query_start, sp.query_end)) == NULL ||
        (fields[7] = ascii_slice_or_none(href, sp.fragment_start, sp.n)) == NULL)
        goto done;
    result = make_tuple(self->components, fields, 8);
done:
    for (int k = 0; k < 8; k++)
        Py_XDECREF(fields[k]);
    split_free(self, &sp);
    return result;
}

/* A UCS4 copy of href[start:end] (ASCII), or NULL with an exception. */
static Py_UCS4 *
ascii_ucs4(const char *href, uint32_t start, uint32_t end)
{
    Py_UCS4 *buf = PyMem_Malloc(((size_t)(end - start) + 1) * sizeof(Py_UCS4));
    if (buf == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (uint32_t k = start; k < end; k++)
        buf[k - start] = (unsigned char)href[k];
    return buf;
}

PyDoc_STRVAR(ada_parse_display_doc,
"parse_display(engine, fallback, url, keep_root) -> Display | None\n\n"
"Parse url with ada, split it, and give its path, query and fragment\n"
"percent-decoded and minimally escaped by the engine (the fields of\n"
"uts58.hosts.whatwg.Display).  keep_root: show a path that is only '/'.  None:\n"
"not a valid URL.  A valid URL it cannot split (no '//' after the scheme)\n"
"is fallback(url, keep_root).  Every decision is the caller's (uts58.spec.formatting).");

static PyObject *
Ada_parse_display(Ada *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "parse_display() takes 4 arguments");
        return NULL;
    }
    if (!PyObject_TypeCheck(args[0], &u58_EngineType)) {
        PyErr_SetString(PyExc_TypeError, "engine must be a uts58.kernels._c.Engine");
        return NULL;
    }
    if (!PyCallable_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "fallback must be callable");
        return NULL;
    }
    if (!PyUnicode_Check(args[2])) {
        PyErr_Format(PyExc_TypeError, "url must be a str, not %.100s", Py_TYPE(args[2])->tp_name);
        return NULL;
    }
    const Engine *engine = (const Engine *)args[0];
    int keep_root = PyObject_IsTrue(args[3]);
    if (keep_root < 0)
        return NULL;
    Py_ssize_t size;
    const char *data = url_utf8(args[2], &size);
    if (data == NULL)
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);  /* (lone surrogates: not a URL) */
    Split sp = {0};
    PyObject *result = NULL, *fields[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    Py_UCS4 *bufs[3] = {NULL, NULL, NULL};
    Py_ssize_t lens[3] = {0, 0, 0};
    Out o = {NULL, 0, 0};
    switch (split_url(self, data, size, &sp)) {
    case 0:
        result = Py_NewRef(Py_None);
        goto done;
    case -1:  /* valid, but not split here */
        result = PyObject_CallFunctionObjArgs(args[1], args[2], args[3], NULL);
        goto done;
    case -2:
        goto done;
    }
    const char *href = sp.href;
    uint32_t ps = sp.port_end, end = sp.path_end;
    if (sp.fragment_start != NONE_AT) {
        if ((bufs[FRAGMENT] = ascii_ucs4(href, sp.fragment_start, sp.n)) == NULL)
            goto done;
        lens[FRAGMENT] = sp.n - sp.fragment_start;
    }
    if (sp.query_start != NONE_AT) {
        if ((bufs[QUERY] = ascii_ucs4(href, sp.query_start, sp.query_end)) == NULL)
            goto done;
        lens[QUERY] = sp.query_end - sp.query_start;
    }
    if (keep_root || !(end - ps == 1 && href[ps] == '/')) {
        uint32_t from = ps < end && href[ps] == '/' ? ps + 1 : ps;  /* without the leading "/" */
        if ((bufs[PATH] = ascii_ucs4(href, from, end)) == NULL)
            goto done;
        lens[PATH] = end - from;
    }
    if (u58_display_tail_into(engine, bufs, lens, &o) < 0 || (fields[5] = out_str(&o)) == NULL ||
        head_fields(&sp, fields) < 0)
        goto done;
    result = make_tuple(self->display, fields, 6);
done:
    for (int k = 0; k < 6; k++)
        Py_XDECREF(fields[k]);
    for (int p = 0; p < 3; p++)
        PyMem_Free(bufs[p]);
    PyMem_Free(o.buf);
    split_free(self, &sp);
    return result;
}

static void *
address(PyObject *value)
{
    void *p = PyLong_AsVoidPtr(value);
    if (p == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "Ada(): a function address is 0");
    return p;
}

/* Whether an ASCII host is a dotted quad of digits (what ada serializes an
 * IPv4 address as): uts58.hosts.domains.domain_to_ascii refuses it. */
static int
dotted_quad(const char *h, uint32_t n)
{
    int groups = 1, digits = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (h[i] == '.') {
            if (digits == 0)
                return 0;
            groups++;
            digits = 0;
        }
        else if (h[i] >= '0' && h[i] <= '9')
            digits++;
        else
            return 0;
    }
    return groups == 4 && digits > 0;
}

PyDoc_STRVAR(ada_domain_doc,
             "domain(name) -> str | None | False\n\n"
             "uts58.hosts.domains.domain_to_ascii in one call: the host ada makes of\n"
             "'http://' + name + '/' when that URL is the host alone (no userinfo,\n"
             "port, path, query or fragment; no IP address), else None; False when\n"
             "ada's answer cannot be split (the Python steps decide).");

static PyObject *
Ada_domain(Ada *self, PyObject *name)
{
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "name must be a str, not %.100s", Py_TYPE(name)->tp_name);
        return NULL;
    }
    Py_ssize_t size;
    const char *data = url_utf8(name, &size);
    if (data == NULL)
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);  /* (lone surrogates: no domain) */
    for (Py_ssize_t i = 0; i < size; i++) {
        switch (data[i]) {  /* more than a host (port, path, userinfo) or not a domain */
        case ':': case '/': case '?': case '#': case '@': case '\\': case '[': case ']': case '%':
            return Py_NewRef(Py_None);
        }
    }
    if (size > (Py_ssize_t)(0xFFFFFFF0u - 8))
        return Py_NewRef(Py_None);
    char small[512];
    char *buf = size + 8 <= (Py_ssize_t)sizeof(small) ? small : PyMem_Malloc((size_t)size + 8);
    if (buf == NULL)
        return PyErr_NoMemory();
    memcpy(buf, "http://", 7);
    memcpy(buf + 7, data, (size_t)size);
    buf[7 + size] = '/';
    Split sp = {0};
    PyObject *result = NULL;
    switch (split_url(self, buf, size + 8, &sp)) {
    case 1:
        if (sp.user_start == NONE_AT && sp.port_end == sp.host_end && sp.path_end == sp.port_end + 1 &&
            sp.query_start == NONE_AT && sp.fragment_start == NONE_AT && sp.scheme_end == 4 &&
            sp.host_end > sp.host_start && sp.href[sp.host_start] != '[' &&
            !dotted_quad(sp.href + sp.host_start, sp.host_end - sp.host_start))
            result = ascii_slice(sp.href, sp.host_start, sp.host_end);
        else
            result = Py_NewRef(Py_None);
        break;
    case 0:
        result = Py_NewRef(Py_None);
        break;
    case -1:
        result = Py_NewRef(Py_False);
        break;
    default:
        break;  /* -2: the exception is set */
    }
    split_free(self, &sp);
    if (buf != small)
        PyMem_Free(buf);
    return result;
}

PyDoc_STRVAR(ada_to_unicode_doc,
             "to_unicode(ascii_domain) -> str | False\n\n"
             "UTS #46 ToUnicode of an ASCII domain by ada (ada_idna_to_unicode);\n"
             "the input where ada gives nothing (uts58.hosts.whatwg.idna_to_unicode);\n"
             "False when this ada-url has not got the function.");

static PyObject *
Ada_to_unicode(Ada *self, PyObject *ascii)
{
    if (!PyUnicode_Check(ascii) || !PyUnicode_IS_ASCII(ascii)) {
        PyErr_SetString(PyExc_TypeError, "to_unicode takes an ASCII str");
        return NULL;
    }
    if (self->idna_to_unicode == NULL)
        return Py_NewRef(Py_False);  /* (not in this ada-url: the caller goes through its wrapper) */
    Py_ssize_t size;
    const char *data = PyUnicode_AsUTF8AndSize(ascii, &size);
    if (data == NULL)
        return NULL;
    ada_owned_string out = self->idna_to_unicode(data, (size_t)size);
    PyObject *result = out.length ? PyUnicode_DecodeUTF8(out.data, (Py_ssize_t)out.length, "strict")
                                  : Py_NewRef(ascii);
    self->free_owned_string(out);
    return result;
}

/* Ada(parse, is_valid, get_href, get_components, free, idna_to_unicode,
 * free_owned_string, components, display): addresses of ada's C functions, and the classes of the results.  The addresses
 * are called as given: only uts58.hosts.whatwg makes an Ada, from addresses cffi
 * gives for the functions of ada_c.h after checking their signatures. */
static PyObject *
Ada_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *a[7], *components, *display;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Ada() takes positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!OO:Ada", &PyLong_Type, &a[0], &PyLong_Type, &a[1], &PyLong_Type,
                          &a[2], &PyLong_Type, &a[3], &PyLong_Type, &a[4], &PyLong_Type, &a[5], &PyLong_Type, &a[6],
                          &components, &display))
        return NULL;
    if (!PyType_Check(components) || !PyType_IsSubtype((PyTypeObject *)components, &PyTuple_Type) ||
        !PyType_Check(display) || !PyType_IsSubtype((PyTypeObject *)display, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Ada(): components and display must be tuple subclasses");
        return NULL;
    }
    void *p[7];
    for (int k = 0; k < 5; k++)
        if ((p[k] = address(a[k])) == NULL)
            return NULL;
    /* The two of ToUnicode are optional (0: this ada-url has not got them),
     * and go together. */
    for (int k = 5; k < 7; k++) {
        p[k] = PyLong_AsVoidPtr(a[k]);
        if (p[k] == NULL && PyErr_Occurred())
            return NULL;
    }
    if ((p[5] == NULL) != (p[6] == NULL)) {
        PyErr_SetString(PyExc_ValueError, "Ada(): idna_to_unicode and free_owned_string go together");
        return NULL;
    }
    Ada *self = (Ada *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    /* Function pointers from data pointers: what cffi hands out. */
    memcpy(&self->parse, &p[0], sizeof(void *));
    memcpy(&self->is_valid, &p[1], sizeof(void *));
    memcpy(&self->get_href, &p[2], sizeof(void *));
    memcpy(&self->get_components, &p[3], sizeof(void *));
    memcpy(&self->free, &p[4], sizeof(void *));
    memcpy(&self->idna_to_unicode, &p[5], sizeof(void *));
    memcpy(&self->free_owned_string, &p[6], sizeof(void *));
    self->components = Py_NewRef(components);
    self->display = Py_NewRef(display);
    return (PyObject *)self;
}

static void
Ada_dealloc(Ada *self)
{
    Py_XDECREF(self->components);
    Py_XDECREF(self->display);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Ada_methods[] = {
    {"parse", (PyCFunction)Ada_parse, METH_O, ada_parse_doc},
    {"domain", (PyCFunction)Ada_domain, METH_O, ada_domain_doc},
    {"to_unicode", (PyCFunction)Ada_to_unicode, METH_O, ada_to_unicode_doc},
    {"parse_display", (PyCFunction)(void (*)(void))Ada_parse_display, METH_FASTCALL, ada_parse_display_doc},
    {NULL, NULL, 0, NULL},
};

PyTypeObject u58_AdaType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "uts58.kernels._c.Ada",
    .tp_basicsize = sizeof(Ada),
    .tp_dealloc = (destructor)Ada_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ada's URL parser called through its C API (see uts58.hosts.whatwg).",
    .tp_methods = Ada_methods,
    .tp_new = Ada_new,
};

/* For hosts.c: Ada.domain and Ada.to_unicode of an Ada (u58_AdaType). */
PyObject *
u58_ada_domain(PyObject *ada, PyObject *name)
{
    return Ada_domain((Ada *)ada, name);
}

PyObject *
u58_ada_to_unicode(PyObject *ada, PyObject *ascii)
{
    return Ada_to_unicode((Ada *)ada, ascii);
}
