"""The figures of ``bench/swarm.py``: what the client processes, the probe and the sampler saw,
cut into the windows measured (each step's hold, the restart), and their markdown table."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass
class Window:
    label: str
    phones: int
    start: float
    end: float
    tables: int = 0
    streams_open: int = 0
    streams_before: int = 0
    extra: dict = field(default_factory=dict)

    def holds(self, when: float) -> bool:
        return self.start <= when < self.end


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def spread(values: list[float]) -> dict:
    return {"n": len(values), "p50": percentile(values, 0.50), "p95": percentile(values, 0.95),
            "p99": percentile(values, 0.99), "max": max(values, default=float("nan"))}  # fmt: skip


def merged(records: list[dict], name: str) -> list[tuple]:
    return [row for record in records for row in record[name]]


def figures(windows: list, records: list[dict], samples: list[dict], healthz: list, idle) -> dict:
    """Every window's figures, and the idle /healthz."""
    idle_healthz = [ms for asked, ms, status in healthz if idle.holds(asked) and status == 200]
    out = {"idle": {"healthz": spread(idle_healthz), "load": load_of(samples, idle)}, "windows": []}
    for window in windows:
        out["windows"].append(window_figures(window, records, samples, healthz, out["idle"]["healthz"]["p95"]))
    return out


def window_figures(window: Window, records: list[dict], samples: list[dict], healthz: list, idle_p95: float) -> dict:
    inside = [row for row in merged(records, "fanout") if window.holds(row[0])]
    missed = [row for row in merged(records, "missed") if window.holds(row[0])]
    requests = [row for row in merged(records, "requests") if window.holds(row[0])]
    streams = [row for row in merged(records, "streams") if window.holds(row[0])]
    answered = [ms for asked, ms, status in healthz if window.holds(asked)]
    refused = {}
    for _asked, _ms, kind, status in requests:
        if not 200 <= status < 400:
            refused[f"{kind} {status}"] = refused.get(f"{kind} {status}", 0) + 1
    stream_refused = {}
    for _asked, _ms, status, _phone in streams:
        if status != 200:
            stream_refused[str(status)] = stream_refused.get(str(status), 0) + 1
    figures = {
        "label": window.label, "phones": window.phones, "tables": window.tables, "seconds": window.end - window.start,
        "streams_open": window.streams_open, "streams_before": window.streams_before,
        "hand": spread([ms for _, kind, ms in inside if kind == "hand"]),
        "manche": spread([ms for _, kind, ms in inside if kind == "manche"]),
        "missed": {"hand": sum(1 for _, kind in missed if kind == "hand"),
                   "manche": sum(1 for _, kind in missed if kind == "manche")},
        "requests": len(requests), "refused": refused,
        "writes_p95": percentile([ms for _, ms, kind, s in requests if kind in ("hand", "manche")], 0.95),
        "pages_p95": percentile([ms for _, ms, kind, s in requests if kind in ("page", "part")], 0.95),
        "streams_asked": len(streams), "streams_refused": stream_refused,
        "refusal_p95": percentile([ms for _, ms, status, _ in streams if status not in (0, 200)], 0.95),
        "healthz": spread(answered), "healthz_failed": sum(1 for asked, _, s in healthz if s != 200 and window.holds(asked)),
        "healthz_ratio": percentile(answered, 0.95) / idle_p95 if idle_p95 else float("nan"),
        "aborted": sum(1 for row in merged(records, "aborted") if window.holds(row[0])),
        "rounds": sum(1 for _, _, kind, status in requests if kind == "manche" and status == 200),
        **load_of(samples, window),
    }  # fmt: skip
    if figures["rounds"] and "server_cpu" in figures:  # what a table's round costs the server, whatever the load
        figures["cpu_per_round_ms"] = figures["server_cpu"] * 10 * figures["seconds"] / figures["rounds"]
    if window.label == "restart":
        figures["back"] = back_after(window, records)
    return figures


def load_of(samples: list[dict], window) -> dict:
    """The server's and the generator's CPU (% of one core), the rest of the machine's, memory and
    file descriptors, over the window."""
    inside = [s for s in samples if window.start <= s["t"] <= window.end]
    if len(inside) < 2:
        return {}
    first, last = inside[0], inside[-1]
    hz, seconds = os.sysconf("SC_CLK_TCK"), last["t"] - first["t"]
    server = max(0, last["server_ticks"] - first["server_ticks"]) / hz / seconds * 100
    bench = (last["bench_ticks"] - first["bench_ticks"]) / hz / seconds * 100
    machine = (last["busy"] - first["busy"]) / hz / seconds * 100
    return {"server_cpu": server, "bench_cpu": bench, "others_cpu": max(0.0, machine - server - bench),
            "rss_mb": max(s["rss"] for s in inside) / 2**20, "fds": max(s["fds"] for s in inside),
            "worker_fds": max(s["worker_fds"] for s in inside),
            "load": sum(s["load"] for s in inside) / len(inside)}  # fmt: skip


def back_after(window: Window, records: list[dict]) -> dict:
    """After the stop: when each phone's stream was first open again (seconds after the stop)."""
    first: dict[str, float] = {}
    for asked, ms, status, phone in merged(records, "streams"):
        if status == 200 and asked >= window.start:
            first[phone] = min(first.get(phone, float("inf")), asked + ms / 1000 - window.start)
    seconds = sorted(first.values())
    return {"phones": len(seconds), "p50": percentile(seconds, 0.5), "p95": percentile(seconds, 0.95),
            "last": seconds[-1] if seconds else float("nan")}  # fmt: skip


def markdown(results: dict, title: str) -> str:
    idle = results["idle"]
    lines = [f"\n{title}; `/healthz` idle p50 / p95 {idle['healthz']['p50']:.1f} / {idle['healthz']['p95']:.1f} ms"
             f" (load average {idle.get('load', {}).get('load', float('nan')):.1f})\n",
             "| step | tables, streams open | hand → other phones p50 / p95 / p99 ms (n) | manche → other phones "
             "p50 / p95 / p99 ms (n) | missed hand / manche | non-2xx | streams refused (p95 ms) | server RSS MB, "
             "fds | server CPU % (per round, ms) | generator CPU % | others' CPU %, load | `/healthz` p95 ms (÷ idle) |",
             "|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for w in results["windows"]:
        hand, manche = w["hand"], w["manche"]
        refused = ", ".join(f"{k}: {v}" for k, v in sorted(w["refused"].items())) or "0"
        streams = ", ".join(f"{k}: {v}" for k, v in sorted(w["streams_refused"].items())) or "0"
        lines.append(
            f"| {w['label']} | {w['tables']:,}, {w['streams_open']:,} | {hand['p50']:.0f} / {hand['p95']:.0f} / "
            f"{hand['p99']:.0f} ({hand['n']:,}) | {manche['p50']:.0f} / {manche['p95']:.0f} / {manche['p99']:.0f} "
            f"({manche['n']:,}) | {w['missed']['hand']} / {w['missed']['manche']} | {refused} | {streams} "
            f"({w['refusal_p95']:.0f}) | {w.get('rss_mb', 0):,.0f}, {w.get('fds', 0):,} | {w.get('server_cpu', 0):.0f} "
            f"({w.get('cpu_per_round_ms', float('nan')):.0f}) | {w.get('bench_cpu', 0):.0f} | {w.get('others_cpu', 0):.0f}, {w.get('load', 0):.1f} | "
            f"{w['healthz']['p95']:.1f} ({w['healthz_ratio']:.1f}×) |"
        )  # fmt: skip
        if "back" in w:
            back = w["back"]
            lines.append(f"\nRestart: {w['streams_before']:,} streams open before; {back['phones']:,} phones' streams "
                         f"open again, p50 {back['p50']:.1f} s, p95 {back['p95']:.1f} s, the last {back['last']:.1f} s "
                         f"after the stop; {w['streams_open']:,} open at the end.")  # fmt: skip
    return "\n".join(lines)
