import Emrtd
import Foundation

/// `jvm`: documents verified per second through the JVM binding (`verifyDump` of the jar
/// `Tools/build-jvm.sh` builds, called from Java as a back end would, its trust store made once)
/// against `emrtd verify --batch --jobs 1`, over the same dumps as the `python` suite (`--dir DIR`:
/// DIR's). Both sides are one process timed from outside, the JVM's start included. Skipped, with
/// the reason on standard error, when the jar, a JDK or Debian's JNA, gson or Kotlin runtime is missing.
let jvmBindingSuite = Suite(
    name: "jvm",
    title: "jvm: verifyDump (JVM binding) vs emrtd verify --batch --jobs 1",
    takesDirectory: true
) { run in
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
        "emrtd-bench-jvm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let host: BindingRows.Host
    switch JVMBindingHost.compile(in: scratch) {
    case .success(let compiled): host = compiled
    case .failure(let reason):
        FileHandle.standardError.write(Data("emrtd-bench jvm: skipped: \(reason.description)\n".utf8))
        return
    }
    try BindingRows.measure(host: host, run: run, scratch: scratch)
}

/// The JVM side: a Java host compiled against the jar of this checkout's version, run on it and
/// on the dependencies its pom declares (Debian's jars).
enum JVMBindingHost {
    static let javaLibraries = "/usr/share/java"
    static let dependencies = ["jna", "gson", "kotlin-stdlib", "kotlin-stdlib-jdk7"]

    /// Verifies each dump path read from standard input with the trust store made once (the
    /// built-in bundle and the CSCAs named), printing the verdict's flags as one JSON line.
    static let driver = """
        import com.google.gson.JsonObject;
        import com.google.gson.JsonParser;
        import dev.emrtd.TrustStore;
        import dev.emrtd.TrustStoreKt;
        import java.io.BufferedReader;
        import java.io.InputStreamReader;
        import java.nio.file.Files;
        import java.nio.file.Path;
        import java.util.ArrayList;
        import java.util.List;

        public final class VerifyDumps {
            public static void main(String[] args) throws Exception {
                String at = args[0].isEmpty() ? null : args[0];
                List<byte[]> cscas = new ArrayList<>();
                for (int i = 1; i < args.length; i++) cscas.add(Files.readAllBytes(Path.of(args[i])));
                StringBuilder out = new StringBuilder();
                try (TrustStore trust = new TrustStore(true, cscas)) {
                    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
                    for (String line; (line = in.readLine()) != null; ) {
                        if (line.isBlank()) continue;
                        JsonObject verdict = JsonParser.parseString(
                            TrustStoreKt.verifyDump(Path.of(line.strip()), trust, at, null, null)).getAsJsonObject();
                        JsonObject flags = new JsonObject();
                        for (String flag : new String[] {\(BindingRows.flags.map { "\"\($0)\"" }.joined(separator: ", "))})
                            flags.add(flag, verdict.get(flag));
                        out.append(flags).append('\\n');
                    }
                }
                System.out.print(out);
            }
        }
        """

    /// The driver compiled into `scratch` against `dist/emrtd-<version>.jar`: how to run it, or why not.
    static func compile(in scratch: URL) -> Result<BindingRows.Host, BenchFailure> {
        let jar = repositoryRoot().appendingPathComponent("dist/emrtd-\(emrtdReleaseVersion).jar").path
        guard FileManager.default.fileExists(atPath: jar) else {
            return .failure(BenchFailure("no jar at \(jar) (Tools/build-jvm.sh builds it)"))
        }
        let libraries = dependencies.map { "\(javaLibraries)/\($0).jar" }
        if let missing = libraries.first(where: { !FileManager.default.fileExists(atPath: $0) }) {
            return .failure(
                BenchFailure("no \(missing) (Tools/setup.sh installs Debian's libjna-java, gson and kotlin)"))
        }
        let source = scratch.appendingPathComponent("VerifyDumps.java")
        let classes = scratch.appendingPathComponent("classes").path
        let classpath = ([jar] + libraries).joined(separator: ":")
        guard (try? Data(driver.utf8).write(to: source)) != nil,
            let outcome = try? ChildProcess.run("/usr/bin/javac", ["-cp", classpath, "-d", classes, source.path]),
            outcome.status == 0
        else {
            return .failure(
                BenchFailure("javac could not compile the JVM host (openjdk-17-jdk-headless: Tools/setup.sh)"))
        }
        return .success(
            BindingRows.Host(
                label: "verifyDump (JVM)", program: "/usr/bin/java",
                arguments: ["-cp", classes + ":" + classpath, "VerifyDumps"], comparesWithPurePython: false))
    }
}
