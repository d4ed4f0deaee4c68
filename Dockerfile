# creatorapi as one container: a static binary FROM scratch, nothing else. No shell, no
# package manager, nothing pulled from a registry. Build it with `make image`, which
# compiles the binary (CGO_ENABLED=0; the SQLite driver is pure Go), stages it with the
# build machine's CA bundle in .image/ and runs docker or podman build on this file.
FROM scratch

ARG VERSION=dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/creatorapi/creatorapi
ARG CREATED=1970-01-01T00:00:00Z
LABEL org.opencontainers.image.title="creatorapi" \
      org.opencontainers.image.description="Creator workspace API: public REST API, operator API, signed webhooks" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.created="${CREATED}"

# Owned by root: /creatorapi, the CA certificates for webhook and SMTP TLS (the build
# machine's bundle) and /tmp (1777).
COPY .image/rootfs/ /
# The data folder (SQLite, generated secrets, notices), owned by the runtime user.
COPY --chown=65532:65532 .image/data/ /data/

# A numeric non-root user (no /etc/passwd in a scratch image).
USER 65532:65532
ENV CREATORAPI_DATA_DIR=/data \
    CREATORAPI_HTTP_ADDR=:8080 \
    CREATORAPI_ADMIN_ADDR=127.0.0.1:8081
VOLUME ["/data"]
# The public listener. The operator listener stays on the container's loopback unless the
# operator sets CREATORAPI_ADMIN_ADDR=0.0.0.0:8081 and publishes it on the host's
# loopback (-p 127.0.0.1:8081:8081): see README, "Run it in a container".
EXPOSE 8080
# HTTPS when CREATORAPI_TLS=files or acme (CREATORAPI_HTTPS_ADDR=:8443; a non-root user
# cannot bind 443: publish it as -p 443:8443 and 8080 as 80 for ACME HTTP-01 and the
# redirect). Certificates from ACME live in the database, not in another volume.
EXPOSE 8443

HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["/creatorapi", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/creatorapi"]
CMD ["serve"]
