/* Where a run of characters of one class ends, scanning backward
 * (RunStart: the start of a host's run of label characters and separators,
 * D22, and of an email local-part's Link_Email run, §5.2).
 *
 * RunStart(firsts, lasts) holds the class, sorted inclusive ranges of code
 * points (the same data the Python kernel's regex is built from, issue 38):
 * a bitmap of the BMP and the supplementary ranges for a binary search.
 * start(text, lo, hi) is the offset after the last character before hi
 * (not before lo) outside the class, or lo: O(run), where the regex of the
 * Python kernels tests each character against the whole class. */
#include "kernels.h"
#include <stddef.h>

typedef struct {
    PyObject_HEAD
    unsigned char bmp[0x10000 / 8];
    Py_ssize_t nsupp;
    uint32_t *supp_first, *supp_last;
} RunStart;

static inline bool
RunStart_has(const RunStart *self, Py_UCS4 c)
{
    if (c < 0x10000)
        return (self->bmp[c >> 3] >> (c & 7)) & 1;
    Py_ssize_t k = ranges_up_to(self->supp_first, self->nsupp, c);
    return k > 0 && c <= self->supp_last[k - 1];
}

static PyObject *
RunStart_start(RunStart *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "start(text, lo, hi): a str and two offsets");
        return NULL;
    }
    PyObject *text = args[0];
    Py_ssize_t lo = PyLong_AsSsize_t(args[1]);
    if (lo == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t hi = PyLong_AsSsize_t(args[2]);
    if (hi == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (lo < 0 || hi > n || lo > hi) {
        PyErr_SetString(PyExc_ValueError, "start(text, lo, hi): 0 <= lo <= hi <= len(text)");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t i = hi;
    while (i > lo && RunStart_has(self, PyUnicode_READ(kind, data, i - 1)))
        i--;
    return PyLong_FromSsize_t(i);
}

static PyObject *
RunStart_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *firsts, *lasts;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "RunStart() takes positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!O!:RunStart", &PyTuple_Type, &firsts, &PyTuple_Type, &lasts))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(firsts);
    if (PyTuple_GET_SIZE(lasts) != count) {
        PyErr_SetString(PyExc_ValueError, "RunStart(): as many firsts as lasts");
        return NULL;
    }
    RunStart *self = (RunStart *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    memset(self->bmp, 0, sizeof self->bmp);
    self->supp_first = PyMem_Malloc(sizeof(uint32_t) * (size_t)(count ? count : 1));
    self->supp_last = PyMem_Malloc(sizeof(uint32_t) * (size_t)(count ? count : 1));
    if (self->supp_first == NULL || self->supp_last == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    long previous = -1;
    for (Py_ssize_t k = 0; k < count; k++) {
        long first = PyLong_AsLong(PyTuple_GET_ITEM(firsts, k));
        long last = PyLong_AsLong(PyTuple_GET_ITEM(lasts, k));
        if (PyErr_Occurred())
            goto fail;
        if (first <= previous || last < first || last > 0x10FFFF) {
            PyErr_SetString(PyExc_ValueError, "RunStart(): sorted, disjoint ranges of code points");
            goto fail;
        }
        previous = last;
        for (long c = first; c <= last && c < 0x10000; c++)
            self->bmp[c >> 3] |= (unsigned char)(1u << (c & 7));
        if (last >= 0x10000) {
            self->supp_first[self->nsupp] = (uint32_t)(first < 0x10000 ? 0x10000 : first);
            self->supp_last[self->nsupp] = (uint32_t)last;
            self->nsupp++;
        }
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static void
RunStart_dealloc(RunStart *self)
{
    PyMem_Free(self->supp_first);
    PyMem_Free(self->supp_last);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef RunStart_methods[] = {
    {"start", (PyCFunction)(void (*)(void))RunStart_start, METH_FASTCALL,
     "start(text, lo, hi): the offset after the last character of text[lo:hi] outside the class, or lo."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject u58_RunStartType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "uts58.kernels._c.RunStart",
    .tp_basicsize = sizeof(RunStart),
    .tp_dealloc = (destructor)RunStart_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "RunStart(firsts, lasts): the backward scan over a class of code points (sorted inclusive ranges).",
    .tp_methods = RunStart_methods,
    .tp_new = RunStart_new,
};
