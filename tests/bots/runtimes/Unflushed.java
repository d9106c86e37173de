// The drawbot (discard what it draws, pass every claim) writing through a PrintWriter
// without autoflush, as a Java student often does: nothing reaches the server until
// the program flushes at its end.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;

public class Unflushed {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(System.out);
        int me = -1;
        out.println("join");
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            if (words[0].equals("id")) {
                me = Integer.parseInt(words[1]);
            } else if (words[0].equals("pick")) {
                out.println("out " + words[1]);
            } else if ((words[0].equals("mout") || words[0].equals("mjgang"))
                       && Integer.parseInt(words[1]) != me) {
                out.println("pass");
            }
        }
        out.flush();
    }
}
