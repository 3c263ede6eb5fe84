"""Origins, the book that keeps them by path, and the trace stages record through."""

from __future__ import annotations

from kubectl_instancetype.api.origin import (
    NO_TRACE,
    Origin,
    Origins,
    Source,
    Trace,
    from_object,
    json_pointer,
    named,
    origin_at,
)

IT = Source("VirtualMachineClusterInstancetype", "u1.medium")
PREF = Source("VirtualMachinePreference", "fedora")


def test_a_value_set_whole_replaces_what_was_recorded_inside_it() -> None:
    book = Origins()
    book.record(("spec", "a", "b"), named("inner"))
    book.record(("spec", "ab"), named("sibling"))
    book.record(("spec", "a"), named("whole"))
    assert book.as_mapping() == {("spec", "ab"): named("sibling"), ("spec", "a"): named("whole")}
    assert book.find(("spec", "a", "b", 0)) == named("whole")
    assert book.find(("spec", "c")) is None


def test_record_new_keeps_an_earlier_explanation() -> None:
    book = Origins()
    book.record(("a",), named("first"))
    book.record_new(("a", "b"), named("later"))
    book.record_new(("c",), named("new"))
    assert book.as_mapping() == {("a",): named("first"), ("c",): named("new")}


def test_move_and_keep_present() -> None:
    book = Origins()
    book.record(("spec", "template", "spec", "x"), named("x"))
    book.record(("spec", "template", "metadata", "y"), named("y"))
    book.record(("spec", "dataVolumeTemplates", 0), named("dv"))
    book.move(("spec", "template", "metadata"), ("metadata",))
    book.move(("spec", "template", "spec"), ("spec",))
    book.keep_present({"spec": {"x": 1}, "metadata": {"y": [], "z": 2}})
    assert book.as_mapping() == {("spec", "x"): named("x"), ("metadata", "y"): named("y")}


def test_a_trace_records_below_its_root_and_names_the_objects() -> None:
    book = Origins()
    trace = Trace(book, ("spec", "template", "spec"), ("spec", "template", "metadata"), IT, PREF)
    trace.at("domain").by_instancetype(("memory", "guest"), "spec.memory.guest")
    trace.metadata().by_preference(("annotations", "k"), "spec.annotations")
    trace.rooted(()).set(("metadata", "namespace"), named("ns"))
    assert book.as_mapping() == {
        ("spec", "template", "spec", "domain", "memory", "guest"): from_object(IT, "spec.memory.guest"),
        ("spec", "template", "metadata", "annotations", "k"): from_object(PREF, "spec.annotations"),
        ("metadata", "namespace"): named("ns"),
    }
    assert trace.absent({"domain": {}}, ("domain", "cpu", "x")) == ("domain", "cpu")
    assert trace.absent({"domain": {"cpu": {}}}, ("domain", "cpu")) is None


def test_no_trace_records_nothing_and_narrows_to_itself() -> None:
    assert NO_TRACE.at("a", 1) is NO_TRACE and NO_TRACE.metadata() is NO_TRACE
    assert NO_TRACE.using(IT, PREF) is NO_TRACE and NO_TRACE.absent({}, ("a",)) is None
    NO_TRACE.set(("a",), named("x"))
    assert not NO_TRACE.on


def test_words_and_pointers() -> None:
    origin = from_object(IT, "spec.cpu.guest")
    assert (origin.text(), origin.short()) == ("instancetype u1.medium (spec.cpu.guest)", "instancetype u1.medium")
    assert Origin("default", "default pod network").short() == "default pod network"
    assert json_pointer(("metadata", "annotations", "a/b~c", 0)) == "/metadata/annotations/a~1b~0c/0"
    assert origin_at({("a",): origin}, ("a", "b", 3)) == origin
