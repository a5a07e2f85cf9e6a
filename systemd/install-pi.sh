#!/bin/sh
# Install gammon-kiosk on a fresh Raspberry Pi OS Lite (Bookworm or later) and start it at boot.
# Run from a checkout of the project:   sudo systemd/install-pi.sh
# Re-running it upgrades the installed package and the unit in place.
set -eu

PREFIX=/opt/gammon-kiosk
VENV="$PREFIX/venv"
KIOSK_USER=gammon
UNIT=gammon-kiosk.service
SRC=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
    echo "install-pi.sh: run as root (sudo $0)" >&2
    exit 1
fi
if [ ! -f "$SRC/pyproject.toml" ] || [ ! -f "$SRC/systemd/$UNIT" ]; then
    echo "install-pi.sh: $SRC is not a gammon-kiosk checkout (no pyproject.toml or $UNIT)" >&2
    exit 1
fi

echo "== apt: Python, picamera2 (libcamera), SDL/KMS libraries for Kivy, the Japanese font, a C compiler"
apt-get update
apt-get install -y --no-install-recommends \
    python3 python3-venv python3-pip python3-picamera2 \
    libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0 \
    libgl1 libgles2 libegl1 libgbm1 libdrm2 libmtdev1 \
    fonts-ipaexfont-gothic gcc python3-dev

echo "== user $KIOSK_USER (no login) in the video, render, input and gpio groups"
if ! id "$KIOSK_USER" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/gammon-kiosk --no-create-home \
        --shell /usr/sbin/nologin "$KIOSK_USER"
fi
for group in video render input gpio; do
    getent group "$group" >/dev/null || groupadd --system "$group"
    usermod -a -G "$group" "$KIOSK_USER"
done

echo "== venv $VENV (with system site packages: picamera2 and libcamera come from apt)"
mkdir -p "$PREFIX"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv --system-site-packages "$VENV"
fi
"$VENV/bin/pip" install --upgrade pip
"$VENV/bin/pip" install "$SRC[pi]"
"$VENV/bin/python" -c "import picamera2" \
    || echo "install-pi.sh: warning: picamera2 does not import in the venv (no Pi camera stack?)" >&2

echo "== the director's PIN (/etc/gammon-kiosk/kiosk.env)"
ENV_FILE=/etc/gammon-kiosk/kiosk.env
if [ ! -f "$ENV_FILE" ]; then
    install -d -m 0750 -o root -g "$KIOSK_USER" /etc/gammon-kiosk
    PIN=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
    PIN=$(printf '%06d' "$((PIN % 1000000))")
    ( umask 027; printf 'GAMMON_KIOSK_PIN=%s\n' "$PIN" > "$ENV_FILE" )
    chgrp "$KIOSK_USER" "$ENV_FILE"
    echo "install-pi.sh: the director's PIN is $PIN (change it in $ENV_FILE)"
fi

echo "== systemd unit"
install -m 0644 "$SRC/systemd/$UNIT" "/etc/systemd/system/$UNIT"
systemctl daemon-reload
systemctl enable "$UNIT"
systemctl restart "$UNIT"
systemctl --no-pager --lines=5 status "$UNIT" || true
echo "== done: the kiosk starts at every boot; logs: journalctl -u $UNIT -f"
