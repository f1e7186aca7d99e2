"""A small writer of Torch7's binary .t7 format, from its specification (an Int
type tag per object; tables and Torch objects carry a reference index; a Torch
object is "V 1", its class name, then its data; a tensor is Int nDimension,
Long sizes, Long strides, Long 1-based offset, then its storage object; a
storage is a Long count then the raw elements).  The tests use it to make
files as other programs (cutorch) wrote them."""
import struct

import numpy as np

NIL, NUMBER, STRING, TABLE, TORCH, BOOLEAN = 0, 1, 2, 3, 4, 5


class Tensor:
    """A tensor to write under `classname`, its storage under `storagename`,
    the elements as `dtype` (numpy type of the file's raw elements)."""

    def __init__(self, classname, storagename, values, dtype, offset=0, storage_values=None):
        self.classname, self.storagename = classname, storagename
        self.values = np.asarray(values)
        self.dtype = dtype
        self.offset = offset
        self.storage_values = storage_values


class Object:
    """A Torch class instance written as its fields (a table), as torch.save
    writes classes without a write method (nn modules)."""

    def __init__(self, classname, fields):
        self.classname, self.fields = classname, fields


class Writer:
    def __init__(self, longsize=8):
        self.out = bytearray()
        self.index = 0
        self.longfmt = "<q" if longsize == 8 else "<i"

    def int(self, v):
        self.out += struct.pack("<i", v)

    def long(self, v):
        self.out += struct.pack(self.longfmt, v)

    def string(self, s):
        b = s.encode()
        self.int(len(b))
        self.out += b

    def reference(self, tag):
        self.int(tag)
        self.index += 1
        self.int(self.index)

    def object(self, v):
        if v is None:
            self.int(NIL)
        elif isinstance(v, bool):
            self.int(BOOLEAN)
            self.int(int(v))
        elif isinstance(v, (int, float)):
            self.int(NUMBER)
            self.out += struct.pack("<d", v)
        elif isinstance(v, str):
            self.int(STRING)
            self.string(v)
        elif isinstance(v, dict):
            self.reference(TABLE)
            self.int(len(v))
            for k, x in v.items():
                self.object(k)
                self.object(x)
        elif isinstance(v, Tensor):
            self.tensor(v)
        elif isinstance(v, Object):
            self.torch_header(v.classname)
            self.object(v.fields)
        else:
            raise TypeError(type(v))

    def torch_header(self, classname):
        self.reference(TORCH)
        self.string("V 1")
        self.string(classname)

    def tensor(self, t):
        self.torch_header(t.classname)
        shape = t.values.shape
        strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
        self.int(len(shape))
        for n in shape:
            self.long(n)
        for n in strides:
            self.long(n)
        self.long(t.offset + 1)
        data = t.storage_values if t.storage_values is not None else t.values.reshape(-1)
        self.torch_header(t.storagename)
        self.long(len(data))
        self.out += np.asarray(data, dtype=t.dtype).tobytes()


def t7bytes(obj, longsize=8):
    w = Writer(longsize)
    w.object(obj)
    return bytes(w.out)
