// swift-tools-version: 6.2
// Builds swift-openapi-generator on its own, for `make generate` alone (deploy/local/generate.sh): Kiwi's package
// depends on the code it generates, committed under Shared/APIClient/Generated/, not on the generator, so that a
// fresh clone does not build the generator and OpenAPIKit before it can build Kiwi.
import PackageDescription

let package = Package(
    name: "kiwi-openapi-generator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
    ]
)
