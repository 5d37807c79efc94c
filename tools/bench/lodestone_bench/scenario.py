"""Scenarios: sequences of db_bench invocations, defined in JSON data
(tools/bench/scenarios/*.json), run for each variant (a binary plus flags)."""

import copy
import json
import os

SCENARIO_DIR = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "scenarios")


class ScenarioError(Exception):
    pass


def list_scenarios(directory=SCENARIO_DIR):
    return sorted(f[:-5] for f in os.listdir(directory) if f.endswith(".json"))


def load_scenario(name_or_path, directory=SCENARIO_DIR):
    path = name_or_path
    if not os.path.exists(path):
        path = os.path.join(directory, name_or_path + ".json")
    if not os.path.exists(path):
        raise ScenarioError("no scenario %r (known: %s)" %
                            (name_or_path, ", ".join(list_scenarios(directory))))
    with open(path) as f:
        scenario = json.load(f)
    validate(scenario, path)
    return scenario


def validate(scenario, where="scenario"):
    for key in ("name", "variants", "baseline", "steps"):
        if key not in scenario:
            raise ScenarioError("%s: missing %r" % (where, key))
    variants = scenario["variants"]
    if scenario["baseline"] not in variants:
        raise ScenarioError("%s: baseline %r is not a variant" %
                            (where, scenario["baseline"]))
    for name, variant in variants.items():
        if variant.get("binary") not in ("stock", "lodestone"):
            raise ScenarioError("%s: variant %r needs binary stock|lodestone" %
                                (where, name))
    if not scenario["steps"]:
        raise ScenarioError("%s: no steps" % where)
    shared = scenario.get("shared_fill")
    if shared is not None:
        if shared.get("variant") not in variants:
            raise ScenarioError("%s: shared_fill.variant must be a variant" %
                                where)
        for v in shared.get("own_fill", []):
            if v not in variants or v == shared["variant"]:
                raise ScenarioError("%s: shared_fill.own_fill names %r, not "
                                    "another variant" % (where, v))
        steps = shared.get("steps", 0)
        if not isinstance(steps, int) or not 0 < steps < len(scenario["steps"]):
            raise ScenarioError("%s: shared_fill.steps must leave a step to "
                                "compare" % where)
    if scenario.get("ticker_step") not in [None] + [
            s.get("name") for s in scenario["steps"]]:
        raise ScenarioError("%s: ticker_step names no step" % where)
    for step in scenario["steps"]:
        if "name" not in step or "benchmarks" not in step:
            raise ScenarioError("%s: a step needs name and benchmarks" % where)
        of = step.get("latency_of")
        if of is not None and of not in [s.get("name") for s in scenario["steps"]]:
            raise ScenarioError("%s: step %r: latency_of names no step" %
                                (where, step["name"]))
        if step.get("binary", "stock") not in ("stock", "lodestone"):
            raise ScenarioError("%s: step %r: binary must be stock|lodestone" %
                                (where, step["name"]))


def scaled(scenario, factor):
    """The scenario with its data `factor` times as large: every integer
    value of the flags named under "scale": {"flags": [...]} (the data's
    size and what must grow with it, such as a cache meant to hold the
    working set), wherever it is set, multiplied by `factor`. The copy is
    named <name>_x<factor> and records its factor under "scale_factor"."""
    if factor == 1:
        out = copy.deepcopy(scenario)
        out["scale_factor"] = 1
        return out
    names = (scenario.get("scale") or {}).get("flags")
    if not names:
        raise ScenarioError("%s: no \"scale\" flags to grow" % scenario["name"])
    if not isinstance(factor, int) or factor < 1:
        raise ScenarioError("scale factor must be a positive integer")
    out = copy.deepcopy(scenario)

    def grow(flags):
        for key in names:
            value = flags.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                flags[key] = value * factor

    grow(out.get("common_flags", {}))
    for variant in out["variants"].values():
        grow(variant.get("flags", {}))
    for step in out["steps"]:
        grow(step.get("flags", {}))
        for flags in step.get("variant_flags", {}).values():
            grow(flags)
    out["name"] = "%s_x%d" % (scenario["name"], factor)
    out["scale_factor"] = factor
    out["description"] = "%s Data scaled x%d (%s)." % (
        scenario.get("description", ""), factor, ", ".join(names))
    return out


def base_name(scenario):
    """The name of the scenario a scaled copy was made from."""
    factor = scenario.get("scale_factor", 1)
    suffix = "_x%d" % factor
    name = scenario["name"]
    return name[:-len(suffix)] if factor != 1 and name.endswith(suffix) else name


def format_flag(key, value):
    if isinstance(value, bool):
        value = "true" if value else "false"
    return "--%s=%s" % (key, value)


def step_command(binary, scenario, variant, step, db_path, report_file=None,
                 workload_report=None):
    """The db_bench argv of one step for one variant. Later dicts win:
    scenario common flags, variant flags, step flags, step per-variant flags.
    A step with "workload_report": "<flag>" gets that flag pointed at
    `workload_report` (a workload's own CSV, e.g. --queue_report_file)."""
    flags = {"progress_reports": False}
    flags.update(scenario.get("common_flags", {}))
    flags.update(scenario["variants"][variant].get("flags", {}))
    flags.update(step.get("flags", {}))
    flags.update(step.get("variant_flags", {}).get(variant, {}))
    flags["benchmarks"] = step["benchmarks"]
    flags["db"] = db_path
    if report_file:
        flags["report_file"] = report_file
        flags.setdefault("report_interval_seconds", 1)
    if workload_report and step.get("workload_report"):
        flags[step["workload_report"]] = workload_report
    return [binary] + [format_flag(k, v) for k, v in sorted(flags.items())]
