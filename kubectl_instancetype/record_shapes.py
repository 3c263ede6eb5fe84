"""The constructors of the shapes of the package's records (written by scripts/generate-record-shapes: do
not edit). :mod:`.records` copies one for each record class, renamed to its fields.

A shape is (frozen, has __post_init__, how each field is filled); the fields are named _f0, _f1 ... The
names these functions read (_record_set, _record_factory, _record_factory_N) are given by records.
"""

# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations


def _shape_0(self, _f0):
    _record_set(self, '_f0', _f0)


def _shape_1(self, _f0):
    _record_set(self, '_f0', _record_factory_0() if _f0 is _record_factory else _f0)


def _shape_2(self, _f0, _f1):
    self._f0 = _record_factory_0() if _f0 is _record_factory else _f0
    self._f1 = _record_factory_1() if _f1 is _record_factory else _f1


def _shape_3(self, _f0, _f1):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)


def _shape_4(self, _f0, _f1):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _record_factory_1() if _f1 is _record_factory else _f1)


def _shape_5(self, _f0, _f1):
    _record_set(self, '_f0', _record_factory_0() if _f0 is _record_factory else _f0)
    _record_set(self, '_f1', _record_factory_1() if _f1 is _record_factory else _f1)


def _shape_6(self, _f0, _f1, _f2):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _record_factory_2() if _f2 is _record_factory else _f2


def _shape_7(self, _f0, _f1, _f2):
    self._f0 = _record_factory_0() if _f0 is _record_factory else _f0
    self._f1 = _record_factory_1() if _f1 is _record_factory else _f1
    self._f2 = _f2


def _shape_8(self, _f0, _f1, _f2):
    self._f0 = _record_factory_0() if _f0 is _record_factory else _f0
    self._f1 = _record_factory_1() if _f1 is _record_factory else _f1
    self._f2 = _record_factory_2() if _f2 is _record_factory else _f2


def _shape_9(self, _f0, _f1, _f2):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)


def _shape_10(self, _f0, _f1, _f2, _f3):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _f2
    self._f3 = _f3


def _shape_11(self, _f0, _f1, _f2, _f3):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _record_factory_2() if _f2 is _record_factory else _f2
    self._f3 = _record_factory_3() if _f3 is _record_factory else _f3


def _shape_12(self, _f0, _f1, _f2, _f3):
    self._f0 = _f0
    self._f1 = _record_factory_1() if _f1 is _record_factory else _f1
    self._f2 = _record_factory_2() if _f2 is _record_factory else _f2
    self._f3 = _record_factory_3() if _f3 is _record_factory else _f3


def _shape_13(self, _f0, _f1, _f2, _f3):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)


def _shape_14(self, _f0, _f1, _f2, _f3):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _record_factory_3() if _f3 is _record_factory else _f3)


def _shape_15(self, _f0, _f1, _f2, _f3):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _record_factory_1() if _f1 is _record_factory else _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)


def _shape_16(self, _f0, _f1, _f2, _f3, _f4):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _f2
    self._f3 = _f3
    self._f4 = _record_factory_4() if _f4 is _record_factory else _f4


def _shape_17(self, _f0, _f1, _f2, _f3, _f4):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _f2
    self._f3 = _record_factory_3() if _f3 is _record_factory else _f3
    self._f4 = _record_factory_4() if _f4 is _record_factory else _f4


def _shape_18(self, _f0, _f1, _f2, _f3, _f4):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)


def _shape_19(self, _f0, _f1, _f2, _f3, _f4):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _record_factory_3() if _f3 is _record_factory else _f3)
    _record_set(self, '_f4', _f4)


def _shape_20(self, _f0, _f1, _f2, _f3, _f4, _f5):
    self._f0 = _f0
    self._f1 = _f1
    self._f2 = _record_factory_2() if _f2 is _record_factory else _f2
    self._f3 = _record_factory_3() if _f3 is _record_factory else _f3
    self._f4 = _f4
    self._f5 = _record_factory_5() if _f5 is _record_factory else _f5


def _shape_21(self, _f0, _f1, _f2, _f3, _f4, _f5):
    self._f0 = _record_factory_0() if _f0 is _record_factory else _f0
    self._f1 = _record_factory_1() if _f1 is _record_factory else _f1
    self._f2 = _record_factory_2() if _f2 is _record_factory else _f2
    self._f3 = _record_factory_3() if _f3 is _record_factory else _f3
    self._f4 = _record_factory_4() if _f4 is _record_factory else _f4
    self._f5 = _f5


def _shape_22(self, _f0, _f1, _f2, _f3, _f4, _f5):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)


def _shape_23(self, _f0, _f1, _f2, _f3, _f4, _f5):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _record_factory_5() if _f5 is _record_factory else _f5)


def _shape_24(self, _f0, _f1, _f2, _f3, _f4):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    self.__post_init__()


def _shape_25(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)


def _shape_26(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _record_factory_6() if _f6 is _record_factory else _f6)


def _shape_27(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _record_factory_3() if _f3 is _record_factory else _f3)
    _record_set(self, '_f4', _record_factory_4() if _f4 is _record_factory else _f4)
    _record_set(self, '_f5', _record_factory_5() if _f5 is _record_factory else _f5)
    _record_set(self, '_f6', _record_factory_6() if _f6 is _record_factory else _f6)


def _shape_28(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)
    _record_set(self, '_f7', _f7)


def _shape_29(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)
    _record_set(self, '_f7', _f7)
    _record_set(self, '_f8', _f8)


def _shape_30(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)
    _record_set(self, '_f7', _record_factory_7() if _f7 is _record_factory else _f7)
    _record_set(self, '_f8', _f8)


def _shape_31(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)
    _record_set(self, '_f7', _f7)
    _record_set(self, '_f8', _f8)
    _record_set(self, '_f9', _f9)


def _shape_32(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)
    _record_set(self, '_f7', _f7)
    _record_set(self, '_f8', _f8)
    _record_set(self, '_f9', _f9)
    _record_set(self, '_f10', _f10)


def _shape_33(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)
    _record_set(self, '_f7', _f7)
    _record_set(self, '_f8', _f8)
    _record_set(self, '_f9', _f9)
    _record_set(self, '_f10', _f10)
    _record_set(self, '_f11', _f11)


def _shape_34(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)
    _record_set(self, '_f7', _f7)
    _record_set(self, '_f8', _f8)
    _record_set(self, '_f9', _record_factory_9() if _f9 is _record_factory else _f9)
    _record_set(self, '_f10', _f10)
    _record_set(self, '_f11', _f11)


def _shape_35(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11, _f12, _f13):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)
    _record_set(self, '_f7', _f7)
    _record_set(self, '_f8', _f8)
    _record_set(self, '_f9', _f9)
    _record_set(self, '_f10', _f10)
    _record_set(self, '_f11', _f11)
    _record_set(self, '_f12', _f12)
    _record_set(self, '_f13', _f13)


def _shape_36(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11, _f12, _f13, _f14, _f15, _f16, _f17, _f18, _f19):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)
    _record_set(self, '_f7', _f7)
    _record_set(self, '_f8', _f8)
    _record_set(self, '_f9', _f9)
    _record_set(self, '_f10', _f10)
    _record_set(self, '_f11', _f11)
    _record_set(self, '_f12', _f12)
    _record_set(self, '_f13', _f13)
    _record_set(self, '_f14', _f14)
    _record_set(self, '_f15', _f15)
    _record_set(self, '_f16', _f16)
    _record_set(self, '_f17', _f17)
    _record_set(self, '_f18', _f18)
    _record_set(self, '_f19', _f19)


def _shape_37(self, _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10, _f11, _f12, _f13, _f14, _f15, _f16, _f17, _f18, _f19, _f20, _f21, _f22, _f23, _f24, _f25, _f26):
    _record_set(self, '_f0', _f0)
    _record_set(self, '_f1', _f1)
    _record_set(self, '_f2', _record_factory_2() if _f2 is _record_factory else _f2)
    _record_set(self, '_f3', _f3)
    _record_set(self, '_f4', _f4)
    _record_set(self, '_f5', _f5)
    _record_set(self, '_f6', _f6)
    _record_set(self, '_f7', _f7)
    _record_set(self, '_f8', _f8)
    _record_set(self, '_f9', _f9)
    _record_set(self, '_f10', _f10)
    _record_set(self, '_f11', _f11)
    _record_set(self, '_f12', _f12)
    _record_set(self, '_f13', _f13)
    _record_set(self, '_f14', _f14)
    _record_set(self, '_f15', _f15)
    _record_set(self, '_f16', _f16)
    _record_set(self, '_f17', _f17)
    _record_set(self, '_f18', _f18)
    _record_set(self, '_f19', _record_factory_19() if _f19 is _record_factory else _f19)
    _record_set(self, '_f20', _f20)
    _record_set(self, '_f21', _f21)
    _record_set(self, '_f22', _record_factory_22() if _f22 is _record_factory else _f22)
    _record_set(self, '_f23', _f23)
    _record_set(self, '_f24', _f24)
    _record_set(self, '_f25', _f25)
    _record_set(self, '_f26', _f26)


SHAPES = {
    (True, False, ('taken',)): _shape_0,
    (True, False, ('taken or made',)): _shape_1,
    (False, False, ('taken or made', 'taken or made')): _shape_2,
    (True, False, ('taken', 'taken')): _shape_3,
    (True, False, ('taken', 'taken or made')): _shape_4,
    (True, False, ('taken or made', 'taken or made')): _shape_5,
    (False, False, ('taken', 'taken', 'taken or made')): _shape_6,
    (False, False, ('taken or made', 'taken or made', 'taken')): _shape_7,
    (False, False, ('taken or made', 'taken or made', 'taken or made')): _shape_8,
    (True, False, ('taken', 'taken', 'taken')): _shape_9,
    (False, False, ('taken', 'taken', 'taken', 'taken')): _shape_10,
    (False, False, ('taken', 'taken', 'taken or made', 'taken or made')): _shape_11,
    (False, False, ('taken', 'taken or made', 'taken or made', 'taken or made')): _shape_12,
    (True, False, ('taken', 'taken', 'taken', 'taken')): _shape_13,
    (True, False, ('taken', 'taken', 'taken', 'taken or made')): _shape_14,
    (True, False, ('taken', 'taken or made', 'taken', 'taken')): _shape_15,
    (False, False, ('taken', 'taken', 'taken', 'taken', 'taken or made')): _shape_16,
    (False, False, ('taken', 'taken', 'taken', 'taken or made', 'taken or made')): _shape_17,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken')): _shape_18,
    (True, False, ('taken', 'taken', 'taken', 'taken or made', 'taken')): _shape_19,
    (False, False, ('taken', 'taken', 'taken or made', 'taken or made', 'taken', 'taken or made')): _shape_20,
    (False, False, ('taken or made', 'taken or made', 'taken or made', 'taken or made', 'taken or made', 'taken')): _shape_21,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken')): _shape_22,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken or made')): _shape_23,
    (True, True, ('taken', 'taken', 'taken', 'taken', 'taken', 'left')): _shape_24,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken')): _shape_25,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken or made')): _shape_26,
    (True, False, ('taken', 'taken', 'taken', 'taken or made', 'taken or made', 'taken or made', 'taken or made')): _shape_27,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken')): _shape_28,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken')): _shape_29,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken or made', 'taken')): _shape_30,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken')): _shape_31,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken')): _shape_32,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken')): _shape_33,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken or made', 'taken', 'taken')): _shape_34,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken')): _shape_35,
    (True, False, ('taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken')): _shape_36,
    (True, False, ('taken', 'taken', 'taken or made', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken or made', 'taken', 'taken', 'taken or made', 'taken', 'taken', 'taken', 'taken')): _shape_37,
}
