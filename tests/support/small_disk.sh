# Sourced by the tests that fill a disk: $work, a temporary directory, and
# $disk, an empty directory in it where they mount tmpfs file systems of the
# sizes they need (umounted and removed on exit). Without root there is no
# mount: the test is skipped (exit 77, SKIP_RETURN_CODE in tests/CMakeLists.txt).
work=$(mktemp -d)
disk=$work/disk
mkdir "$disk"
trap 'umount "$disk" 2>/dev/null || true; rm -rf "$work"' EXIT
mount -t tmpfs -o size=1m tmpfs "$disk" 2>/dev/null || { echo "SKIP: cannot mount a tmpfs (needs root)"; exit 77; }
umount "$disk"
