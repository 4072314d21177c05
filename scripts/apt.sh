# Sourced by the scripts that install Debian packages they need (not run on its own).

# Run a command as root: directly when we are root, else through sudo.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# apt-get waits up to ten minutes for the dpkg and package-list locks that another installer
# may hold.
apt_get() {
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"
}

# Install Debian packages, refreshing the package lists only when the first try fails.
apt_install() {
    if ! apt_get install -y "$@"; then
        apt_get update
        apt_get install -y "$@"
    fi
}
