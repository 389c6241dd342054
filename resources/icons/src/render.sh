#!/usr/bin/env bash
# Renders the SVG sources to the PNGs the console loads (Qt's SVG image plugin is not a
# dependency). Rail icons: 24 px design at 2x; the application icon at 128 px.
set -euo pipefail
cd "$(dirname "$0")"
for svg in *.svg; do
    name=${svg%.svg}
    if [ "$name" = gatehouse ]; then
        convert -background none -density 384 "$svg" -resize 128x128 "../$name.png"
    else
        convert -background none -density 192 "$svg" -resize 48x48 "../$name.png"
    fi
done
