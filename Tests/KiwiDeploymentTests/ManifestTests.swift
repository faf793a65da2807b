import Foundation
import KiwiConfiguration
import KiwiMessaging
import KiwiServiceSupport
import KiwiTopology
import Testing

@testable import KiwiGateway
@testable import KiwiScanWorker

/// The Dockerfile, `deploy/k8s/` and `deploy/docker-compose.yml` against the code: what each service reads, listens
/// on, waits for and consumes. A change on one side that the other does not follow fails here, not in a deployment.
@Suite("Deployment manifests")
struct ManifestTests {
    /// The variables whose values are secrets: only the Secret or `deploy/.env` may hold them.
    static let secretVariables: Set<String> = ["DATABASE_URL", "AMQP_URL", "INTERNAL_API_TOKEN", "QUOTA_KEY_SECRET", "OPENAI_API_KEY", "APNS_KEY"]

    // MARK: Image and executables

    @Test("Kubernetes and docker-compose run one image, the one kustomization.yaml pins")
    func oneImage() throws {
        let files = try DeploymentFiles()
        let names = try Set(DeploymentFile.allCases.flatMap { try files.containers(in: $0) }.map(\.imageName))
        #expect(names.count == 1, "images: \(names.sorted())")
        let kustomization = try #require(files.objects("Kustomization").first)
        #expect(Set(kustomization["images"].items.compactMap { $0["name"].string }) == names)
    }

    @Test("the Dockerfile installs executable products of Package.swift in /app, the four services among them")
    func imageProducts() throws {
        let files = try DeploymentFiles()
        #expect(!files.imageProducts.isEmpty, "the Dockerfile has no ARG PRODUCTS=\"…\"")
        #expect(files.imageProducts.isSubset(of: files.executableProducts), "\(files.imageProducts.sorted())")
        #expect(Set(KiwiService.allCases.map(\.rawValue)).isSubset(of: files.imageProducts))
        #expect(files.dockerfile.contains("COPY --from=build /staging \(DeploymentFiles.installFolder)\n"))
    }

    @Test("every container runs, by its full path, an executable the image ships", arguments: DeploymentFile.allCases)
    func commands(file: DeploymentFile) throws {
        let files = try DeploymentFiles()
        for container in try files.containers(in: file) {
            let executable = try #require(container.executable, "\(container.location) has no command")
            #expect(files.imageProducts.contains(executable), "\(container.location) runs \(executable)")
            #expect(container.command.first == "\(DeploymentFiles.installFolder)/\(executable)", "\(container.location)")
        }
    }

    @Test("each of the four services is deployed once", arguments: DeploymentFile.allCases)
    func everyServiceOnce(file: DeploymentFile) throws {
        let services = try DeploymentFiles().serviceContainers(in: file).map { $0.service.rawValue }
        #expect(services.sorted() == KiwiService.allCases.map(\.rawValue).sorted())
    }

    // MARK: Environment

    @Test("each service is given only variables it reads, or that compose one it reads", arguments: DeploymentFile.allCases)
    func onlyVariablesTheServiceReads(file: DeploymentFile) throws {
        for (service, container) in try DeploymentFiles().serviceContainers(in: file) {
            let unread = Set(container.environment.keys).subtracting(service.variableNames).subtracting(container.substitutedVariables)
            #expect(unread.isEmpty, "\(container.location) is given \(unread.sorted()), which \(service.rawValue) does not read")
        }
    }

    @Test("each service accepts the configuration it is given, with the example secrets", arguments: DeploymentFile.allCases)
    func configurationIsValid(file: DeploymentFile) throws {
        for (service, container) in try DeploymentFiles().serviceContainers(in: file) {
            do {
                _ = try service.configuration(container.environment)
            } catch {
                Issue.record("\(container.location): \(error)")
            }
        }
    }

    @Test("every service runs in production mode, without the development Apple key set", arguments: DeploymentFile.allCases)
    func productionMode(file: DeploymentFile) throws {
        for (service, container) in try DeploymentFiles().serviceContainers(in: file) {
            let configuration = try service.configuration(container.environment)
            #expect(configuration.basics.environment == .production, "\(container.location)")
            #expect(container.environment["APPLE_JWKS_FILE"] == nil, "\(container.location)")
        }
    }

    @Test("secrets come from the Secret or deploy/.env, never from the deployment files", arguments: DeploymentFile.allCases)
    func secretsAreNotWrittenDown(file: DeploymentFile) throws {
        for container in try DeploymentFiles().containers(in: file) {
            let written = container.literalVariables.intersection(Self.secretVariables)
            #expect(written.isEmpty, "\(container.location) sets \(written.sorted()) in the file itself")
        }
    }

    @Test("the gateway publishes scan jobs to the queue the scan workers consume", arguments: DeploymentFile.allCases)
    func oneJobQueue(file: DeploymentFile) throws {
        let files = try DeploymentFiles()
        let gateway = try GatewayConfiguration(environment: files.container(running: .gateway, in: file).environment)
        let worker = try ScanWorkerConfiguration(environment: files.container(running: .scanWorker, in: file).environment)
        #expect(gateway.jobQueue == worker.jobQueue)
    }

    @Test("the gateway's AUTH_SERVICE_URL reaches the auth service's HTTP port", arguments: DeploymentFile.allCases)
    func authServiceURL(file: DeploymentFile) throws {
        let files = try DeploymentFiles()
        let gateway = try GatewayConfiguration(environment: files.container(running: .gateway, in: file).environment)
        let auth = try files.container(running: .auth, in: file)
        let authPort = try KiwiService.auth.configuration(auth.environment).basics.port
        let host = try #require(gateway.authServiceURL.host)
        let port = gateway.authServiceURL.port ?? 80
        switch file {
        case .compose:
            #expect(host == auth.name && port == authPort, "\(gateway.authServiceURL) is not \(auth.name):\(authPort)")
        case .kubernetes:
            let service = try #require(files.object("Service", named: host), "no Service \(host)")
            #expect(files.deployments(selectedBy: service["spec"]["selector"]).map { $0["metadata"]["name"].string } == [auth.name])
            let servicePort = try #require(service["spec"]["ports"].items.first { $0["port"].int == port }, "\(host) has no port \(port)")
            #expect(DeploymentFiles.containerPort(servicePort["targetPort"], in: auth.manifest) == authPort)
        }
    }

    // MARK: Ports, probes and Services

    @Test("each service listens on its default HTTP and metrics ports", arguments: DeploymentFile.allCases)
    func defaultPorts(file: DeploymentFile) throws {
        for (service, container) in try DeploymentFiles().serviceContainers(in: file) {
            let configured = try service.configuration(container.environment).basics
            let defaults = try service.defaults()
            #expect(configured.port == defaults.port, "\(container.location)")
            #expect(configured.metricsPort == defaults.metricsPort, "\(container.location)")
        }
    }

    @Test("each Deployment's ports named http and metrics are the PORT and METRICS_PORT its service reads")
    func containerPorts() throws {
        for (service, container) in try DeploymentFiles().serviceContainers(in: .kubernetes) {
            let basics = try service.configuration(container.environment).basics
            #expect(DeploymentFiles.containerPort(YAMLValue("http"), in: container.manifest) == basics.port, "\(container.location)")
            #expect(DeploymentFiles.containerPort(YAMLValue("metrics"), in: container.manifest) == basics.metricsPort, "\(container.location)")
        }
    }

    @Test("liveness and startup probes GET /health, readiness probes GET /health/ready, on the service's PORT")
    func probes() throws {
        for (service, container) in try DeploymentFiles().serviceContainers(in: .kubernetes) {
            let port = try service.configuration(container.environment).basics.port
            for (probe, path) in [("livenessProbe", "/health"), ("readinessProbe", "/health/ready"), ("startupProbe", "/health")] {
                if probe == "startupProbe" && !container.manifest[probe].exists { continue }
                let request = container.manifest[probe]["httpGet"]
                #expect(request["path"].string == path, "\(container.location) \(probe)")
                #expect(DeploymentFiles.containerPort(request["port"], in: container.manifest) == port, "\(container.location) \(probe)")
            }
        }
    }

    @Test("every Service selects one Deployment and targets ports its containers declare")
    func servicesTargetContainerPorts() throws {
        let files = try DeploymentFiles()
        let services = files.objects("Service")
        #expect(!services.isEmpty)
        for service in services {
            let name = service["metadata"]["name"].string ?? "?"
            let selected = files.deployments(selectedBy: service["spec"]["selector"])
            try #require(selected.count == 1, "Service \(name) selects \(selected.count) Deployments")
            let containers = selected[0]["spec"]["template"]["spec"]["containers"].items
            for port in service["spec"]["ports"].items {
                let target = port["targetPort"].exists ? port["targetPort"] : port["port"]
                let found = containers.contains { DeploymentFiles.containerPort(target, in: $0) != nil }
                #expect(found, "Service \(name) port \(port["name"].string ?? "?") targets no container port")
            }
        }
    }

    // MARK: Scaling and disruption

    @Test("every Deployment has a PodDisruptionBudget")
    func disruptionBudgets() throws {
        let files = try DeploymentFiles()
        let budgeted = files.objects("PodDisruptionBudget").flatMap { budget in
            files.deployments(selectedBy: budget["spec"]["selector"]["matchLabels"]).compactMap { $0["metadata"]["name"].string }
        }
        for deployment in files.objects("Deployment") {
            let name = deployment["metadata"]["name"].string ?? "?"
            #expect(budgeted.contains(name), "Deployment \(name) has no PodDisruptionBudget")
        }
    }

    @Test("Deployments that leave replicas out are scaled by an autoscaler, and scaled ones leave it out")
    func autoscaledReplicas() throws {
        let files = try DeploymentFiles()
        let scaled = Set(
            (files.objects("HorizontalPodAutoscaler") + files.objects("ScaledObject")).compactMap {
                $0["spec"]["scaleTargetRef"]["name"].string
            }
        )
        for deployment in files.objects("Deployment") {
            let name = deployment["metadata"]["name"].string ?? "?"
            #expect(scaled.contains(name) != deployment["spec"]["replicas"].exists, "Deployment \(name)")
        }
    }

    @Test("the gateway is scaled on CPU")
    func gatewayAutoscaler() throws {
        let files = try DeploymentFiles()
        let gateway = try #require(files.deployment(running: .gateway))
        let autoscaler = try #require(
            files.objects("HorizontalPodAutoscaler").first {
                $0["spec"]["scaleTargetRef"]["name"].string == gateway["metadata"]["name"].string
            }
        )
        #expect(autoscaler["spec"]["scaleTargetRef"]["kind"].string == "Deployment")
        #expect(autoscaler["spec"]["metrics"].items.contains { $0["resource"]["name"].string == "cpu" })
        #expect((autoscaler["spec"]["minReplicas"].int ?? 1) >= 2, "one gateway pod is a single point of failure")
    }

    @Test("KEDA scales the scan worker's Deployment on the queue length of the queue the worker consumes")
    func kedaQueue() throws {
        let files = try DeploymentFiles()
        let scaledObject = try #require(files.objects("ScaledObject").first)
        let deployment = try #require(files.deployment(running: .scanWorker))
        #expect(scaledObject["spec"]["scaleTargetRef"]["name"].string == deployment["metadata"]["name"].string)
        #expect((scaledObject["spec"]["scaleTargetRef"]["kind"].string ?? "Deployment") == "Deployment")
        let worker = try ScanWorkerConfiguration(environment: files.container(running: .scanWorker, in: .kubernetes).environment)
        let trigger = try #require(scaledObject["spec"]["triggers"].items.first { $0["type"].string == "rabbitmq" })
        #expect(trigger["metadata"]["queueName"].string == KiwiTopology.scanJobQueue)
        #expect(trigger["metadata"]["queueName"].string == worker.jobQueue)
        #expect(trigger["metadata"]["mode"].string == "QueueLength")
    }

    @Test("KEDA's target per worker is at most the jobs one worker holds at once")
    func kedaTarget() throws {
        let files = try DeploymentFiles()
        let scaledObject = try #require(files.objects("ScaledObject").first)
        let trigger = try #require(scaledObject["spec"]["triggers"].items.first { $0["type"].string == "rabbitmq" })
        let target = try #require(trigger["metadata"]["value"].string.flatMap { Int($0) }, "value must be a whole number in quotes")
        let worker = try ScanWorkerConfiguration(environment: files.container(running: .scanWorker, in: .kubernetes).environment)
        #expect((1...worker.concurrency).contains(target), "target \(target), WORKER_CONCURRENCY \(worker.concurrency)")
    }

    @Test("KEDA reaches RabbitMQ at an address of the form its trigger's protocol needs, as the operator's user")
    func kedaAuthentication() throws {
        let files = try DeploymentFiles()
        let scaledObject = try #require(files.objects("ScaledObject").first)
        let trigger = try #require(scaledObject["spec"]["triggers"].items.first { $0["type"].string == "rabbitmq" })
        let name = try #require(trigger["authenticationRef"]["name"].string)
        let authentication = try #require(files.object("TriggerAuthentication", named: name), "no TriggerAuthentication \(name)")
        var parameters: [String: String] = [:]
        for reference in authentication["spec"]["secretTargetRef"].items {
            let secret = try #require(reference["name"].string.flatMap { files.generatedSecret(named: $0) }, "not a Secret the operator generates")
            let key = try #require(reference["key"].string)
            parameters[reference["parameter"].string ?? "?"] = secret[key]
        }
        #expect(parameters["username"] != nil && parameters["password"] != nil, "\(parameters.keys.sorted())")
        let host = try #require(trigger["metadata"]["host"].string, "the host, without credentials, in the trigger")
        let schemes: Set<String> =
            switch trigger["metadata"]["protocol"].string ?? "auto" {
            case "http": ["http", "https"]
            case "amqp": ["amqp", "amqps"]
            default: ["http", "https", "amqp", "amqps"]
            }
        let url = try #require(URLComponents(string: host))
        #expect(url.scheme.map { schemes.contains($0) } == true && url.user == nil, "host \(host)")
        #expect(url.host == files.rabbitmqClusters.first?["metadata"]["name"].string, "host \(host)")
    }

    @Test(
        "the scan worker may take longer to stop than a scan may wait, and the gateway longer than its shutdown timeout",
        arguments: DeploymentFile.allCases
    )
    func gracePeriod(file: DeploymentFile) throws {
        let files = try DeploymentFiles()
        let gatewayContainer = try files.container(running: .gateway, in: file)
        let gateway = try GatewayConfiguration(environment: gatewayContainer.environment)
        let worker = try files.container(running: .scanWorker, in: file)
        for (container, needed) in [(worker, gateway.scanTimeout), (gatewayContainer, try #require(gateway.shutdownTimeout))] {
            let drain = container.gracePeriodSeconds - container.preStopSeconds
            #expect(Int64(drain) > needed.components.seconds, "\(container.location) has \(drain) s to stop, but may need \(needed)")
        }
    }

    // MARK: Kubernetes hygiene

    @Test("every pod runs as a non-root user on a read-only root file system, without privilege escalation or capabilities")
    func securityContext() throws {
        let files = try DeploymentFiles()
        for deployment in files.objects("Deployment") {
            let name = deployment["metadata"]["name"].string ?? "?"
            let pod = deployment["spec"]["template"]["spec"]
            #expect(pod["securityContext"]["runAsNonRoot"].bool == true, "Deployment \(name)")
            for container in pod["containers"].items {
                let context = container["securityContext"]
                #expect(context["readOnlyRootFilesystem"].bool == true, "Deployment \(name)")
                #expect(context["allowPrivilegeEscalation"].bool == false, "Deployment \(name)")
                #expect(context["capabilities"]["drop"].items.compactMap(\.string) == ["ALL"], "Deployment \(name)")
            }
        }
    }

    @Test("kustomization.yaml lists every manifest but the example Secret")
    func kustomizationResources() throws {
        let files = try DeploymentFiles()
        let kustomization = try #require(files.objects("Kustomization").first)
        let listed = Set(kustomization["resources"].items.compactMap(\.string))
        #expect(listed == Set(files.kubernetes.map { $0.file }).subtracting(["kustomization.yaml", "secret.example.yaml"]))
    }

    // MARK: docker-compose

    @Test("the scan worker can be scaled with --scale: it has no container name and no host port")
    func scalableWorker() throws {
        let worker = try DeploymentFiles().container(running: .scanWorker, in: .compose).manifest
        #expect(!worker["container_name"].exists)
        #expect(!worker["ports"].exists)
    }

    @Test("every compose service has a health check, and waits for its dependencies to be healthy")
    func composeHealthChecks() throws {
        for (name, service) in try DeploymentFiles().compose["services"].entries {
            #expect(service["healthcheck"]["test"].exists, "\(name) has no health check")
            #expect(service["depends_on"].items.isEmpty, "\(name): the list form of depends_on does not wait for health")
            for (dependency, condition) in service["depends_on"].entries {
                #expect(condition["condition"].string == "service_healthy", "\(name) on \(dependency)")
            }
        }
    }

    @Test("compose health checks ask each service's readiness on its PORT")
    func composeReadiness() throws {
        for (service, container) in try DeploymentFiles().serviceContainers(in: .compose) {
            let port = try service.configuration(container.environment).basics.port
            let check = container.manifest["healthcheck"]["test"].items.compactMap(\.string).joined(separator: " ")
            #expect(check.contains("http://127.0.0.1:\(port)/health/ready"), "\(container.location): \(check)")
        }
    }

    @Test("the OpenAI stub runs only with the stub profile, listening on every interface")
    func composeStub() throws {
        let containers = try DeploymentFiles().containers(in: .compose)
        let stub = try #require(containers.first { $0.executable == "kiwi-llm-stub" })
        #expect(stub.manifest["profiles"].items.compactMap(\.string) == ["stub"])
        #expect(stub.command.contains("--host=0.0.0.0"), "the stub listens on 127.0.0.1 unless told otherwise")
    }
}
