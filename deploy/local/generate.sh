#!/usr/bin/env bash
# make generate: the API client's Swift code (Shared/APIClient/Generated/) from the API's OpenAPI document, with
# swift-openapi-generator built on its own (Tools/openapi-generator/). The code is committed, so that neither a build
# nor a fresh clone builds the generator; Tools/openapi-generator/generated.sha256 records what it was generated from,
# and GeneratedClientTests fails once the document or the code drifts from it (docs/architecture.md, "Modules and
# layers").
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$KIWI_ROOT"
command -v swift >/dev/null 2>&1 || die "swift is not on PATH"
tool=Tools/openapi-generator
document=Shared/APIDocument/openapi.yaml
output=Shared/APIClient/Generated
swift build --package-path "$tool" --product swift-openapi-generator
rm -rf "$output"
mkdir -p "$output"
"$tool/.build/debug/swift-openapi-generator" generate "$document" \
    --config "$tool/openapi-generator-config.yaml" \
    --additional-file-comment "swift-format-ignore-file" \
    --additional-file-comment "From $document by \`make generate\`; GeneratedClientTests fails when the two drift apart." \
    --output-directory "$output"
sha256sum "$document" "$tool/openapi-generator-config.yaml" "$output"/*.swift >"$tool/generated.sha256"
log "generated $(ls "$output" | tr '\n' ' ')from $document"
