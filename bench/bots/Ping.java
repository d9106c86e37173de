// The sandbox bench's Java bot: answers each line with "ok" and the line.
// Built by bench/bench_sandbox.py with: javac -d DIR Ping.java
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Ping {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            System.out.println("ok " + line);
            System.out.flush();
        }
    }
}
