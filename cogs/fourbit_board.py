"""A picture of the 4bit Town board (Pillow): the 16 locations with this round's workers and
blocked marks, City Hall, the build row, the turn-order track, and each player's panel."""
from __future__ import annotations

import io
import textwrap

from PIL import Image, ImageDraw, ImageFont

from engines.fourbit.data import BUILDINGS, CITY_HALL, LOCATIONS

COLOURS = [(220, 60, 60), (60, 110, 220), (40, 160, 80), (230, 170, 30)]
W, H = 900, 640


def _font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has one fixed size
        return ImageFont.load_default()


def render(public: dict, names: list[str]) -> bytes:
    """PNG bytes of the board as the public view shows it (nothing secret is drawn)."""
    img = Image.new("RGB", (W, H), (245, 240, 228))
    d = ImageDraw.Draw(img)
    small, big = _font(12), _font(16)
    d.text((12, 8), f"4bit Town · round {public['round']} of 6 · {public['phase']}", fill=(0, 0, 0), font=big)
    placed: dict[int, list[int]] = {}
    if public["reveal"] and public["reveal"]["round"] == public["round"]:
        for w in public["reveal"]["workers"]:
            placed.setdefault(w["loc"], []).append(w["seat"])
    for n in range(16):  # 4 x 4 grid of locations
        x, y = 12 + (n % 4) * 150, 36 + (n // 4) * 92
        blocked = public["blocked"][n]
        d.rectangle([x, y, x + 142, y + 84], fill=(225, 215, 200) if blocked else (255, 252, 245),
                    outline=(90, 80, 70))
        d.text((x + 6, y + 4), f"{n:04b} = {n}", fill=(0, 0, 0), font=big)
        d.text((x + 6, y + 24), LOCATIONS[n][1][:22], fill=(40, 40, 40), font=small)
        effect = LOCATIONS[n][2].replace("→", "->")  # the bundled font has no arrow
        for k, line in enumerate(textwrap.wrap(effect, 24)[:2]):
            d.text((x + 6, y + 38 + 13 * k), line, fill=(90, 90, 90), font=small)
        if blocked:
            d.text((x + 96, y + 4), "blocked", fill=(150, 40, 40), font=small)
        for k, seat in enumerate(placed.get(n, [])):
            d.ellipse([x + 8 + 22 * k, y + 64, x + 24 + 22 * k, y + 80], fill=COLOURS[seat])
    x, y = 12, 36 + 4 * 92  # City Hall
    d.rectangle([x, y, x + 592, y + 40], fill=(235, 235, 250), outline=(90, 80, 70))
    d.text((x + 6, y + 4), "City Hall: workers whose location was blocked land here", fill=(0, 0, 0), font=small)
    for k, seat in enumerate(placed.get(CITY_HALL, [])):
        d.ellipse([x + 330 + 22 * k, y + 12, x + 348 + 22 * k, y + 30], fill=COLOURS[seat])
    y += 50
    row = ", ".join(BUILDINGS[b][1] for b in public["row"])
    d.text((12, y), f"Build row: {row or '—'} · deck {public['deck_left']}", fill=(0, 0, 0), font=small)
    y += 20
    track = " > ".join(f"{names[e['seat']]} @{e['space']}" for e in public["track"])
    d.text((12, y), f"Turn order: {track}", fill=(0, 0, 0), font=small)
    for i, p in enumerate(public["players"]):  # player panels on the right
        px, py = 620, 36 + i * 150
        d.rectangle([px, py, px + 268, py + 142], fill=(255, 255, 255), outline=COLOURS[i], width=3)
        d.text((px + 8, py + 4), names[i][:24], fill=COLOURS[i], font=big)
        d.text((px + 8, py + 26), f"wood {p['wood']}  stone {p['stone']}  coins {p['coins']}", fill=(0, 0, 0),
               font=small)
        d.text((px + 8, py + 42), f"VP {p['vp']}  level {p['level']}", fill=(0, 0, 0), font=small)
        d.text((px + 8, py + 58), f"workers {p['hired']} hired, {p['unhired']} unhired, {p['sent']} out",
               fill=(0, 0, 0), font=small)
        built = ", ".join(BUILDINGS[b][1] for b in p["built"]) or "no buildings"
        for k in range(0, min(len(built), 120), 40):
            d.text((px + 8, py + 74 + 14 * (k // 40)), built[k:k + 40], fill=(60, 60, 60), font=small)
        if p["plans"]:
            d.text((px + 8, py + 122), f"{len(p['plans'])} planned", fill=(60, 60, 60), font=small)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()
