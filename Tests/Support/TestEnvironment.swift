import Foundation
import Testing

/// The PostgreSQL that `make test` starts; the URL's user may create databases.
public func testDatabaseURL() throws -> String {
    try #require(
        ProcessInfo.processInfo.environment["KIWI_TEST_DATABASE_URL"],
        "KIWI_TEST_DATABASE_URL is not set: run the tests with `make test`, which starts PostgreSQL"
    )
}

/// The RabbitMQ that `make test` starts.
public func testAMQPURL() throws -> String {
    try #require(
        ProcessInfo.processInfo.environment["KIWI_TEST_AMQP_URL"],
        "KIWI_TEST_AMQP_URL is not set: run the tests with `make test`, which starts RabbitMQ"
    )
}

/// The rabbitmq_prometheus plugin of the RabbitMQ that `make test` starts (`deploy/local/infra.sh`), without a path.
public func testRabbitMQMetricsURL() throws -> String {
    try #require(
        ProcessInfo.processInfo.environment["KIWI_TEST_RABBITMQ_METRICS_URL"],
        "KIWI_TEST_RABBITMQ_METRICS_URL is not set: run the tests with `make test`, which starts RabbitMQ with its Prometheus plugin"
    )
}

/// A program `make test` installs for the tests (`KIWI_TEST_PYTHON`: the virtualenv with recipe-scrapers;
/// `KIWI_TEST_SCHEMATHESIS`: schemathesis in that virtualenv; `KIWI_TEST_FAKE_APNS_PYTHON`: the fake APNs's
/// virtualenv; `KIWI_TEST_CHROMIUM`: Debian's chromium), from its environment variable.
public func testTool(_ variable: String) throws -> String {
    let path = ProcessInfo.processInfo.environment[variable] ?? ""
    try #require(
        !path.isEmpty && FileManager.default.isExecutableFile(atPath: path),
        "\(variable) is not set to a program: run the tests with `make test`, which installs it"
    )
    return path
}
