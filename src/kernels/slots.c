/* A new instance of a class with __slots__, its slots filled in one call
 * (issue 14: a Link is made per link found, and ten slot setters cost a
 * fifth of find_links on a list of links).
 *
 * SlotMaker(cls, names) checks once that each name is a writable object
 * slot of cls (a member descriptor of cls itself), and keeps the slots'
 * offsets; maker(*values) is then cls.__new__(cls) with each slot set to
 * its value, in the order of names: what uts58.detect.link._init does with the
 * slots' own setters, which remains the reference (the Python kernels). */
#include "kernels.h"
#include <stddef.h>
#include <structmember.h>

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyTypeObject *cls;
    Py_ssize_t count;
    Py_ssize_t offsets[16];
} SlotMaker;

static PyObject *
SlotMaker_call(SlotMaker *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != self->count || (kwnames != NULL && PyTuple_GET_SIZE(kwnames))) {
        PyErr_Format(PyExc_TypeError, "a %.100s maker takes %zd positional arguments", self->cls->tp_name, self->count);
        return NULL;
    }
    PyObject *obj = self->cls->tp_alloc(self->cls, 0);
    if (obj == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < nargs; k++) {
        PyObject **slot = (PyObject **)((char *)obj + self->offsets[k]);
        *slot = Py_NewRef(args[k]);
    }
    return obj;
}

static PyObject *
SlotMaker_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *cls, *names;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "SlotMaker() takes positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!O!:SlotMaker", &PyType_Type, &cls, &PyTuple_Type, &names))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    if (count < 1 || count > 16) {
        PyErr_SetString(PyExc_ValueError, "SlotMaker(): 1 to 16 slot names");
        return NULL;
    }
    PyTypeObject *klass = (PyTypeObject *)cls;
    if (klass->tp_alloc == NULL || klass->tp_new != PyBaseObject_Type.tp_new) {
        PyErr_SetString(PyExc_TypeError, "SlotMaker(): the class must be made by object.__new__");
        return NULL;
    }
    SlotMaker *self = (SlotMaker *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->vectorcall = (vectorcallfunc)SlotMaker_call;
    self->cls = (PyTypeObject *)Py_NewRef(cls);
    self->count = count;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *name = PyTuple_GET_ITEM(names, k);
        PyObject *descr = PyUnicode_Check(name) ? PyDict_GetItemWithError(klass->tp_dict, name) : NULL;
        if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type) ||
            ((PyDescrObject *)descr)->d_type != klass) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "SlotMaker(): each name must be a slot of the class itself");
            goto fail;
        }
        PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type != T_OBJECT_EX || (member->flags & READONLY)) {
            PyErr_SetString(PyExc_ValueError, "SlotMaker(): each slot must hold a writable object");
            goto fail;
        }
        for (Py_ssize_t j = 0; j < k; j++)
            if (self->offsets[j] == member->offset) {
                PyErr_SetString(PyExc_ValueError, "SlotMaker(): a slot named twice");
                goto fail;
            }
        self->offsets[k] = member->offset;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static void
SlotMaker_dealloc(SlotMaker *self)
{
    Py_XDECREF(self->cls);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
SlotMaker_tp_call(PyObject *self, PyObject *args, PyObject *kwds)
{
    return PyVectorcall_Call(self, args, kwds);
}

PyTypeObject u58_SlotMakerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "uts58.kernels._c.SlotMaker",
    .tp_basicsize = sizeof(SlotMaker),
    .tp_dealloc = (destructor)SlotMaker_dealloc,
    .tp_vectorcall_offset = offsetof(SlotMaker, vectorcall),
    .tp_call = SlotMaker_tp_call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "SlotMaker(cls, names): maker(*values) is a new cls with its slots set, in the order of names.",
    .tp_new = SlotMaker_new,
};
