/* The optional C accelerator of uts58, uts58.kernels._c: the kernels of
 * UTS #58 over one Unicode version's tables, and one call into ada's URL
 * parser.  One file per job:
 *
 *   termination.c  §3.5.1, where a URL ends (Engine.find_link_end)
 *   escaping.c     §4.1 and the percent-decoding before it (Engine.escape_parts,
 *                  Engine.decode, Engine.display_tail)
 *   ada.c          ada's C API: parse and split a URL (Ada.parse), and with the
 *                  decoding and §4.1 of its tail (Ada.parse_display)
 *   html.c         HTML escaping of text (escape_html)
 *   scan.c         parts of the candidate scan, for one finder (Scan): scheme
 *                  tokens not linked (D53, D20), clauses (D22)
 *   slots.c        a slotted object made and filled in one call (SlotMaker: Link)
 *   hosts.c        host validation in one call (Hosts: DomainRules._validate, D106)
 *   runs.c         the backward scan over a class of characters (RunStart: where
 *                  a host's run and an email local-part start, D22, §5.2)
 *   module.c       this file: the Engine type, built from tables, and the module
 *
 * Decisions are not made here: which schemes, whether a URL had a path, how
 * its host is shown are all decided once, in Python (uts58.spec.formatting), and
 * passed in.  Where this module is not built, or UTS58_PURE_PYTHON is set,
 * uts58 runs the same kernels in Python (uts58.kernels._python); uts58.kernels
 * alone chooses.  The tests run both on the official test files and
 * compare them on generated input.  The exceptions are scan.c, which
 * repeats steps of the Python scanner (uts58.detect.scanner._Scanner) for speed
 * (issues 14 and 23), and hosts.c, DomainRules._validate in one call (issue
 * 23): there the Python code is the reference, with no twin in _kernels_py,
 * and tests/test_scan.py and tests/test_host_kernel.py compare the two.
 *
 * The module holds no data of its own: the Link_Term table, the brackets,
 * the parts of Table 3-3 and the decodable ASCII characters are all given
 * to Engine() by uts58.kernels.engine, from the same objects the Python
 * code uses, so there is one source of truth for each. */
#include "kernels.h"

static int
fill_seq(Seq *seq, PyObject *str)
{
    if (!PyUnicode_Check(str) || PyUnicode_GET_LENGTH(str) < 1 || PyUnicode_GET_LENGTH(str) > SEQLEN) {
        PyErr_SetString(PyExc_ValueError, "syntax sequences must be str of 1 to 4 characters");
        return -1;
    }
    seq->len = PyUnicode_GET_LENGTH(str);
    for (Py_ssize_t k = 0; k < seq->len; k++)
        seq->ch[k] = PyUnicode_READ_CHAR(str, k);
    return 0;
}

static int
fill_seqs(Seq *seqs, int *count, PyObject *tuple)
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) > MAXSEQ) {
        PyErr_SetString(PyExc_ValueError, "syntax sequences must be a tuple of at most 4 str");
        return -1;
    }
    *count = (int)PyTuple_GET_SIZE(tuple);
    for (int k = 0; k < *count; k++)
        if (fill_seq(&seqs[k], PyTuple_GET_ITEM(tuple, k)) < 0)
            return -1;
    return 0;
}

/* A tuple of ints as a new uint32_t array. */
uint32_t *
u58_u32_array(PyObject *tuple, Py_ssize_t expected)
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != expected) {
        PyErr_SetString(PyExc_ValueError, "table columns must be tuples of equal length");
        return NULL;
    }
    uint32_t *a = PyMem_Calloc((size_t)expected + 1, sizeof(uint32_t));
    if (a == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < expected; k++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(tuple, k));
        if (PyErr_Occurred() || v > 0x10FFFF) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "table values must be code points");
            PyMem_Free(a);
            return NULL;
        }
        a[k] = (uint32_t)v;
    }
    return a;
}

static void
Engine_dealloc(Engine *self)
{
    PyMem_Free(self->supp_first);
    PyMem_Free(self->supp_last);
    PyMem_Free(self->supp_code);
    PyMem_Free(self->br_close);
    PyMem_Free(self->br_open);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Engine(bmp, supp_first, supp_last, supp_code, br_close, br_open,
 *         stack_limit, parts, decodable)
 *   bmp: bytes of 65536 Link_Term codes; supp_*: tuples of the sorted
 *   supplementary ranges; br_*: tuples, Close -> Open, sorted by Close;
 *   parts: 4 tuples (initiator, terminators, clear_stack_open) in the
 *   order path, query, fragment, directive; decodable: 3 str of ASCII. */
static PyObject *
Engine_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *bmp, *sf, *sl, *sc, *bc, *bo, *parts, *decodable;
    Py_ssize_t stack_limit;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Engine() takes positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "SO!O!O!O!O!nO!O!:Engine", &bmp, &PyTuple_Type, &sf, &PyTuple_Type, &sl,
                          &PyTuple_Type, &sc, &PyTuple_Type, &bc, &PyTuple_Type, &bo, &stack_limit,
                          &PyTuple_Type, &parts, &PyTuple_Type, &decodable))
        return NULL;
    if (PyBytes_GET_SIZE(bmp) != 0x10000 || stack_limit < 0 || stack_limit > MAX_STACK || PyTuple_GET_SIZE(parts) != NPARTS ||
        PyTuple_GET_SIZE(decodable) != 3) {
        PyErr_SetString(PyExc_ValueError, "Engine(): malformed tables");
        return NULL;
    }
    Engine *self = (Engine *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    const unsigned char *codes = (const unsigned char *)PyBytes_AS_STRING(bmp);
    for (Py_ssize_t k = 0; k < 0x10000; k++)
        if (codes[k] > CLOSE) {
            PyErr_SetString(PyExc_ValueError, "Engine(): Link_Term code out of range");
            goto fail;
        }
    memcpy(self->bmp, codes, 0x10000);
    self->nsupp = PyTuple_GET_SIZE(sf);
    if ((self->supp_first = u58_u32_array(sf, self->nsupp)) == NULL ||
        (self->supp_last = u58_u32_array(sl, self->nsupp)) == NULL)
        goto fail;
    uint32_t *sc32 = u58_u32_array(sc, self->nsupp);
    if (sc32 == NULL)
        goto fail;
    self->supp_code = PyMem_Malloc((size_t)self->nsupp + 1);
    if (self->supp_code == NULL) {
        PyMem_Free(sc32);
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < self->nsupp; k++)
        self->supp_code[k] = (unsigned char)sc32[k];
    for (Py_ssize_t k = 0; k < self->nsupp; k++)
        if (sc32[k] > CLOSE) {
            PyMem_Free(sc32);
            PyErr_SetString(PyExc_ValueError, "Engine(): Link_Term code out of range");
            goto fail;
        }
    PyMem_Free(sc32);
    self->nbrackets = PyTuple_GET_SIZE(bc);
    if ((self->br_close = u58_u32_array(bc, self->nbrackets)) == NULL ||
        (self->br_open = u58_u32_array(bo, self->nbrackets)) == NULL)
        goto fail;
    for (Py_ssize_t k = 1; k < self->nsupp; k++)
        if (self->supp_first[k] <= self->supp_last[k - 1])
            goto unsorted;
    for (Py_ssize_t k = 1; k < self->nbrackets; k++)
        if (self->br_close[k] <= self->br_close[k - 1])
            goto unsorted;
    self->stack_limit = stack_limit;
    for (int p = 0; p < NPARTS; p++) {
        PyObject *row = PyTuple_GET_ITEM(parts, p);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 3) {
            PyErr_SetString(PyExc_ValueError, "Engine(): a part is (initiator, terminators, clear_stack_open)");
            goto fail;
        }
        if (fill_seq(&self->parts[p].initiator, PyTuple_GET_ITEM(row, 0)) < 0 ||
            fill_seqs(self->parts[p].terminators, &self->parts[p].nterminators, PyTuple_GET_ITEM(row, 1)) < 0 ||
            fill_seqs(self->parts[p].clear, &self->parts[p].nclear, PyTuple_GET_ITEM(row, 2)) < 0)
            goto fail;
        PartSyntax *syn = &self->parts[p];
        for (int k = 0; k < syn->nterminators; k++)
            syn->starts[syn->nstarts++] = syn->terminators[k].ch[0];
        for (int k = 0; k < syn->nclear; k++)
            syn->starts[syn->nstarts++] = syn->clear[k].ch[0];
    }
    for (int p = 0; p < 3; p++) {
        PyObject *chars = PyTuple_GET_ITEM(decodable, p);
        if (!PyUnicode_Check(chars)) {
            PyErr_SetString(PyExc_ValueError, "Engine(): decodable characters must be str");
            goto fail;
        }
        for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(chars); k++) {
            Py_UCS4 c = PyUnicode_READ_CHAR(chars, k);
            if (c >= 128) {
                PyErr_SetString(PyExc_ValueError, "Engine(): decodable characters must be ASCII");
                goto fail;
            }
            self->decodable[p][c] = 1;
        }
    }
    return (PyObject *)self;
unsorted:
    PyErr_SetString(PyExc_ValueError, "Engine(): ranges and brackets must be sorted");
fail:
    Py_DECREF(self);
    return NULL;
}

static PyMethodDef Engine_methods[] = {
    {"find_link_end", (PyCFunction)(void (*)(void))u58_Engine_find_link_end, METH_FASTCALL, u58_find_link_end_doc},
    {"escape_parts", (PyCFunction)(void (*)(void))u58_Engine_escape_parts, METH_FASTCALL, u58_escape_parts_doc},
    {"display_tail", (PyCFunction)(void (*)(void))u58_Engine_display_tail, METH_FASTCALL, u58_display_tail_doc},
    {"decode", (PyCFunction)(void (*)(void))u58_Engine_decode, METH_FASTCALL, u58_decode_doc},
    {NULL, NULL, 0, NULL},
};

PyTypeObject u58_EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "uts58.kernels._c.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "UTS #58 §3.5.1, §4.1 and percent-decoding over one Unicode version's tables.",
    .tp_methods = Engine_methods,
    .tp_new = Engine_new,
};

static PyMethodDef module_methods[] = {
    {"escape_html", (PyCFunction)u58_escape_html, METH_O, u58_escape_html_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "uts58.kernels._c",
    .m_doc = "The C kernels of uts58 (optional; chosen by uts58.kernels).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit__c(void)
{
    if (PyType_Ready(&u58_EngineType) < 0 || PyType_Ready(&u58_AdaType) < 0 || PyType_Ready(&u58_ScanType) < 0 ||
        PyType_Ready(&u58_SlotMakerType) < 0 || PyType_Ready(&u58_HostsType) < 0 ||
        PyType_Ready(&u58_RunStartType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&speedups_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "Engine", (PyObject *)&u58_EngineType) < 0 ||
        PyModule_AddObjectRef(m, "Ada", (PyObject *)&u58_AdaType) < 0 ||
        PyModule_AddObjectRef(m, "Scan", (PyObject *)&u58_ScanType) < 0 ||
        PyModule_AddObjectRef(m, "SlotMaker", (PyObject *)&u58_SlotMakerType) < 0 ||
        PyModule_AddObjectRef(m, "Hosts", (PyObject *)&u58_HostsType) < 0 ||
        PyModule_AddObjectRef(m, "RunStart", (PyObject *)&u58_RunStartType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    PyObject *classes = u58_scan_classes();
    int added = classes == NULL ? -1 : PyModule_AddObjectRef(m, "SCAN_CLASSES", classes);
    Py_XDECREF(classes);
    if (added < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
