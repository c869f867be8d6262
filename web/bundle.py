#!/usr/bin/env python3
"""bundle.py: one self-contained page from the page's sources and gpulint.wasm.

    bundle.py OUT.html index.html app.js style.css gpulint.wasm

The stylesheet and script go inline and the WebAssembly module goes in as
base64, so that the page opens from file:// (where a browser refuses to
fetch a .wasm) and makes no request at all.
"""
import base64
import sys


def main():
    out, html, js, css, wasm = sys.argv[1:6]
    page = open(html, encoding="utf-8").read()
    script = open(js, encoding="utf-8").read()
    style = open(css, encoding="utf-8").read()
    module = base64.b64encode(open(wasm, "rb").read()).decode("ascii")
    if "</script" in script.lower() or "</style" in style.lower():
        sys.exit("bundle.py: app.js or style.css closes its own tag")
    parts = {
        '<link rel="stylesheet" href="style.css">': "<style>\n" + style + "</style>",
        '<script src="app.js"></script>': (
            '<script id="gpulint-wasm" type="application/octet-stream">' + module + "</script>\n"
            "<script>\n" + script + "</script>"
        ),
    }
    for marker, text in parts.items():
        if page.count(marker) != 1:
            sys.exit(f"bundle.py: {html} must hold {marker!r} once")
        page = page.replace(marker, text)
    with open(out, "w", encoding="utf-8") as f:
        f.write(page)


if __name__ == "__main__":
    main()
