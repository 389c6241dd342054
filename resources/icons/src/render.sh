#!/usr/bin/env bash
# Renders the SVG sources to the PNGs the console loads (Qt's SVG image plugin is not a
# dependency). Rail icons: 24 px design at 2x; the application icon at 128 px, and at 256 px
# for the desktop packages (packaging/icons; the SVG itself is installed as the scalable icon).
set -euo pipefail
cd "$(dirname "$0")"
for svg in *.svg; do
    name=${svg%.svg}
    if [ "$name" = gatehouse ]; then
        convert -background none -density 384 "$svg" -resize 128x128 "../$name.png"
        convert -background none -density 768 "$svg" -resize 256x256 -depth 8 \
            "../../../packaging/icons/$name-256.png"
    else
        convert -background none -density 192 "$svg" -resize 48x48 "../$name.png"
    fi
done
