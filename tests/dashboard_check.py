# SPDX-License-Identifier: MIT
"""dashboard_check.py DASHBOARD [PROMETHEUS-URL [EMPTY-OK...]]: a Grafana dashboard's JSON.

Without a URL: the fields Grafana's classic dashboard schema requires and
what an import needs (a title, a uid, an integer schemaVersion; each panel
a type, a unique id, a gridPos of integers h, w, x, y inside the 24
columns; each target a refId and a PromQL expr; a datasource variable of
type prometheus that every panel and target names, so that the importer
picks the Prometheus); and what a rack's operator reads it for (issue
46): a 48 h default range, the machines counted by state and the silent
ones, every query narrowed by the $machine variable. One line per fault,
exit 1 when there is one.

With a URL: every target's query, the $machine variable as .* (all
machines), is run against that Prometheus' HTTP API; a line per query
with the number of series it returned; exit 1 when one fails, or returns
none unless its panel's title, or TITLE:REFID for one query of it, is one
of EMPTY-OK (the caller says why those have nothing to show there)."""
import json
import sys
import urllib.parse
import urllib.request


def structure(d):
    faults = []
    for k, kind in (("title", str), ("uid", str), ("schemaVersion", int), ("panels", list)):
        if not isinstance(d.get(k), kind):
            faults.append("the dashboard has no %s (%s)" % (k, kind.__name__))
    variables = {v.get("name"): v for v in d.get("templating", {}).get("list", [])}
    ds = variables.get("datasource")
    if not ds or ds.get("type") != "datasource" or ds.get("query") != "prometheus":
        faults.append("no datasource variable of type prometheus (named datasource)")
    for name, v in variables.items():
        if not name or not v.get("type"):
            faults.append("a variable without its name or type: %r" % v)
    if d.get("time", {}).get("from") != "now-48h":
        faults.append("the default range is %r, not the last 48 h (now-48h)" % d.get("time", {}).get("from"))
    titles = {p.get("title") for p in d.get("panels", [])}
    for need in ("Machines by state", "Silent machines"):
        if need not in titles:
            faults.append("no panel %r" % need)
    ids = set()
    for p in d.get("panels", []):
        where = "panel %r" % p.get("title")
        if not isinstance(p.get("type"), str):
            faults.append("%s: no type" % where)
        if p.get("id") in ids or not isinstance(p.get("id"), int):
            faults.append("%s: its id %r is missing or not unique" % (where, p.get("id")))
        ids.add(p.get("id"))
        g = p.get("gridPos", {})
        if not all(isinstance(g.get(k), int) for k in "hwxy"):
            faults.append("%s: gridPos needs integers h, w, x, y: %r" % (where, g))
        elif g["x"] < 0 or g["w"] < 1 or g["x"] + g["w"] > 24:
            faults.append("%s: gridPos outside the 24 columns: %r" % (where, g))
        if p.get("datasource", {}).get("uid") != "${datasource}":
            faults.append("%s: its datasource is not ${datasource}" % where)
        if not p.get("targets"):
            faults.append("%s: no query" % where)
        refs = set()
        for t in p.get("targets", []):
            if not t.get("expr") or not t.get("refId") or t["refId"] in refs:
                faults.append("%s: a target without its expr or a unique refId: %r" % (where, t))
            elif "$machine" not in t["expr"]:
                faults.append("%s: target %s is not narrowed by $machine" % (where, t["refId"]))
            refs.add(t.get("refId"))
            if t.get("datasource", {}).get("uid") != "${datasource}":
                faults.append("%s: target %s: its datasource is not ${datasource}" % (where, t.get("refId")))
    return faults


def queries(d, url, empty_ok):
    faults = []
    for p in d["panels"]:
        for t in p["targets"]:
            expr = t["expr"].replace("$machine", ".*")
            q = urllib.parse.urlencode({"query": expr})
            try:
                r = json.load(urllib.request.urlopen("%s/api/v1/query?%s" % (url, q), timeout=10))
            except Exception as e:  # an HTTP 400 names a query Prometheus cannot parse
                faults.append("%s %s: %s" % (p["title"], t["refId"], e))
                continue
            n = len(r.get("data", {}).get("result", []))
            print("%-34s %s %3d series  %s" % (p["title"], t["refId"], n, expr))
            empty_ok_here = p["title"] in empty_ok or "%s:%s" % (p["title"], t["refId"]) in empty_ok
            if r.get("status") != "success" or (n == 0 and not empty_ok_here):
                faults.append("%s %s: %s" % (p["title"], t["refId"], "no series" if n == 0 else r))
    return faults


def main():
    d = json.load(open(sys.argv[1]))
    faults = structure(d)
    if not faults and len(sys.argv) > 2:
        faults = queries(d, sys.argv[2].rstrip("/"), sys.argv[3:])
    for f in faults:
        print("dashboard: " + f)
    sys.exit(1 if faults else 0)


main()
