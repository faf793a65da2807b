import KiwiServiceSupport

/// `kiwi-scan-worker`: turns queued photos into validated recipes.
@main
struct App {
    static func main() async {
        await ServiceLauncher.run(ScanWorkerConfiguration.self, build: buildApplication)
    }
}
