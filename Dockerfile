# syntax=docker/dockerfile:1
# Debian packages are not pinned (hadolint DL3008): bookworm changes them only for security fixes, which we want.
# hadolint global ignore=DL3008
# One image for every Kiwi service: /app/kiwi-gateway, /app/kiwi-auth, /app/kiwi-scan-worker, /app/kiwi-notifier and
# /app/kiwi-llm-stub.
# The image runs the gateway unless told otherwise; Kubernetes and docker-compose choose the executable with `command:`.
#
#   docker build -t ghcr.io/kiwi/kiwi-backend:latest .
#   docker run --rm --env-file … ghcr.io/kiwi/kiwi-backend:latest /app/kiwi-auth

# The code is developed with Swift 6.3; any 6.2 or newer builds it (README "Prerequisites").
ARG SWIFT_VERSION=6.3

# ---- build: the Swift toolchain and the -dev packages, never shipped ----
FROM swift:${SWIFT_VERSION}-bookworm AS build

# rabbitmq-c is found through pkg-config (the CRabbitMQ system library target).
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends librabbitmq-dev libssl-dev libcurl4-openssl-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# Dependencies first, so that editing the sources does not fetch them again. Package.resolved is git-ignored:
# it is copied when the build context has one, and resolved here otherwise.
COPY Package.* ./
RUN swift package resolve

COPY . .

# The executables the image ships; deploy/k8s and deploy/docker-compose.yml run them (ManifestTests checks that).
ARG PRODUCTS="kiwi-gateway kiwi-auth kiwi-scan-worker kiwi-notifier kiwi-llm-stub"

# Static Swift runtime and Foundation: the final image needs only the C libraries below.
RUN for product in $PRODUCTS; do \
        swift build -c release --static-swift-stdlib --product "$product" || exit 1; \
    done

# Stage exactly what runs: the executables, any resource bundles they carry, and the static backtracer that
# turns a crash into a symbolicated backtrace on stderr.
RUN mkdir /staging \
    && bin="$(swift build -c release --show-bin-path)" \
    && for product in $PRODUCTS; do cp "$bin/$product" /staging/ || exit 1; done \
    && find -L "$bin" -maxdepth 1 -name '*.resources' -exec cp -R {} /staging/ \; \
    && cp /usr/libexec/swift/linux/swift-backtrace-static /staging/

# ---- run: Debian's run-time libraries only ----
FROM debian:bookworm-slim

# librabbitmq4 is rabbitmq-c's run-time library; ca-certificates for TLS to OpenAI, Apple and PostgreSQL;
# tzdata for Foundation's time zones; libcurl4 in case FoundationNetworking is ever linked. curl is the health
# check of docker-compose (the services' images have no other HTTP client); it adds little, since libcurl4 is
# here anyway, and Kubernetes does not use it (its probes are HTTP GETs from the kubelet).
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates tzdata librabbitmq4 libcurl4 curl \
    && rm -rf /var/lib/apt/lists/*

# A fixed uid, so that Kubernetes' runAsNonRoot can check it and volumes can be given to it.
RUN groupadd --system --gid 10001 kiwi \
    && useradd --system --uid 10001 --gid kiwi --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin kiwi

WORKDIR /app
COPY --from=build /staging /app

ENV PATH="/app:${PATH}" \
    SWIFT_BACKTRACE="enable=yes,sanitize=yes,threads=all,images=all,interactive=no,swift-backtrace=/app/swift-backtrace-static"

USER 10001:10001

# HTTP (gateway 8080, auth 8081, worker probes 8082), metrics (9101–9103) and the OpenAI stub (8089).
EXPOSE 8080 8081 8082 8089 9101 9102 9103

CMD ["/app/kiwi-gateway"]
