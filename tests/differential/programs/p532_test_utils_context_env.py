"""mx.test_utils.default_context / set_default_context (which also moves mx.current_context())
and environment(): variables set for a with-block and restored after it, even after an
exception; None unsets; a non-str value is a TypeError."""
import os

from _common import err


def run(mx):
    tu = mx.test_utils
    res = {"default": str(tu.default_context()), "type": type(tu.default_context()).__name__}
    tu.set_default_context(mx.cpu(1))
    res["after_set"] = [str(tu.default_context()), str(mx.current_context())]
    tu.set_default_context(mx.cpu(0))
    res["restored"] = str(tu.default_context())

    os.environ.pop("P532_A", None)
    os.environ["P532_B"] = "old"
    seen = {}
    with tu.environment("P532_A", "1"):
        seen["inside_pair"] = os.environ.get("P532_A")
    seen["after_pair"] = os.environ.get("P532_A")
    with tu.environment({"P532_A": "2", "P532_B": None}):
        seen["inside_dict"] = [os.environ.get("P532_A"), os.environ.get("P532_B")]
    seen["after_dict"] = [os.environ.get("P532_A"), os.environ.get("P532_B")]
    try:
        with tu.environment("P532_B", "new"):
            seen["inside_raise"] = os.environ.get("P532_B")
            raise KeyError("boom")
    except KeyError:
        seen["after_raise"] = os.environ.get("P532_B")
    os.environ.pop("P532_B", None)
    res["environment"] = seen

    def enter(*args):
        with tu.environment(*args):
            pass

    res["environment_errors"] = {"not_str": err(mx, enter, "P532_C", 3),
                                 "one_name": err(mx, enter, "P532_C"),
                                 "three_args": err(mx, enter, "P532_C", "1", "2")}
    res["env_after_errors"] = os.environ.get("P532_C")
    return res
