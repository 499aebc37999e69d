#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes an SMBIOS table as the kernel exposes it (/sys/firmware/dmi/tables:
DMI, the structures; smbios_entry_point) from a JSON description on stdin,
laid out as DMTF's DSP0134 says: a 4-byte header (type, formatted length,
handle), the formatted area, the strings (each NUL-ended, the set ended by
one more NUL). For the inventory's tests: a machine's firmware as a vendor
writes it, including what vendors get wrong (a structure cut short, strings
with control bytes, a table that runs past its end).

usage: smbios.py DIR < description.json
  {"version": [3, 2],
   "bios": {"vendor", "version", "date"},
   "system": {"vendor", "product", "version", "serial", "uuid": "16 bytes hex", "sku", "family"},
   "board": {"vendor", "product", "version", "serial"},
   "sockets": [{"socket", "vendor", "version", "populated", "cores", "threads"}],
   "dimms": [{"slot", "bank", "mb" (0: empty), "kb": bool, "type": 26, "speed",
              "configured", "vendor", "serial", "part", "length": formatted length}],
   "tail": "hex bytes put as they are before the end-of-table structure"}
"""
import json
import os
import struct
import sys


class Table:
    def __init__(self):
        self.data = b""
        self.handle = 0

    def add(self, kind, body, strings, length=None):
        """body: the formatted area after the header; length: cut it short."""
        area = struct.pack("<BBH", kind, 0, self.handle) + body
        if length is not None:
            area = area[:length]
        area = area[:1] + bytes([len(area)]) + area[2:]
        tail = b"".join(s.encode("latin-1") + b"\0" for s in strings) or b"\0"
        self.data += area + tail + b"\0"
        self.handle += 1


def strings_of(values):
    """String numbers for VALUES (0 for an empty one) and the string set."""
    numbers, out = [], []
    for v in values:
        if v:
            out.append(v)
            numbers.append(len(out))
        else:
            numbers.append(0)
    return numbers, out


def main():
    spec = json.load(sys.stdin)
    t = Table()
    b = spec.get("bios", {})
    (vendor, version, date), s = strings_of([b.get("vendor"), b.get("version"), b.get("date")])
    t.add(0, struct.pack("<BBHBBQ", vendor, version, 0xE800, date, 0, 0), s)
    y = spec.get("system", {})
    n, s = strings_of([y.get("vendor"), y.get("product"), y.get("version"), y.get("serial"), y.get("sku"), y.get("family")])
    uuid = bytes.fromhex(y.get("uuid", "00" * 16))
    t.add(1, bytes(n[:4]) + uuid + bytes([6, n[4], n[5]]), s)
    d = spec.get("board", {})
    n, s = strings_of([d.get("vendor"), d.get("product"), d.get("version"), d.get("serial")])
    t.add(2, bytes(n) + bytes([0, 0, 0, 0, 0]) + struct.pack("<HB", 0, 0x0A), s)
    for k in spec.get("sockets", []):
        n, s = strings_of([k.get("socket"), k.get("vendor"), k.get("version")])
        status = 0x41 if k.get("populated", True) else 0
        body = (bytes([n[0], 3, 0xB3, n[1]]) + b"\0" * 8 + bytes([n[2], 0]) + struct.pack("<HHH", 100, 3600, 2400)
                + bytes([status, 0]) + struct.pack("<HHH", 0xFFFF, 0xFFFF, 0xFFFF) + bytes([0, 0, 0])
                + bytes([k.get("cores", 0), k.get("cores", 0), k.get("threads", 0)]) + struct.pack("<HH", 0, 0xB3))
        t.add(4, body, s)
    for m in spec.get("dimms", []):
        n, s = strings_of([m.get("slot"), m.get("bank"), m.get("vendor"), m.get("serial"), m.get("part")])
        mb = m.get("mb", 0)
        if m.get("kb"):
            size, ext = 0x8000 | (mb * 1024), 0
        elif mb >= 0x7FFF:
            size, ext = 0x7FFF, mb
        else:
            size, ext = mb, 0
        body = (struct.pack("<HHHHH", 0x1000, 0xFFFE, 72, 64, size) + bytes([9, 0, n[0], n[1], m.get("type", 0x1A)])
                + struct.pack("<HH", 0x80, m.get("speed", 0)) + bytes([n[2], n[3], 0, n[4], 2])
                + struct.pack("<IHHHH", ext, m.get("configured", 0), 1200, 1200, 1200))
        t.add(17, body, s, m.get("length"))
    t.data += bytes.fromhex(spec.get("tail", ""))	# before the end: what the walk must stop at
    t.add(127, b"", [])
    data = t.data
    major, minor = spec.get("version", [3, 2])
    entry = b"_SM3_" + bytes([0, 24, major, minor, 0, 1, 0]) + struct.pack("<IQ", len(data), 0)
    os.makedirs(sys.argv[1], exist_ok=True)
    with open(os.path.join(sys.argv[1], "DMI"), "wb") as f:
        f.write(data)
    with open(os.path.join(sys.argv[1], "smbios_entry_point"), "wb") as f:
        f.write(entry)


main()
