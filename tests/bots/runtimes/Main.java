// A plain Java bot (JVM defaults): "line" plays the default ruleset's line protocol
// (join, discard what it draws, pass every claim); "json" plays a Botzone/NOI 2014 turn:
// the drawn tile back ("2 X" -> "PLAY X"), PASS otherwise (a fixed target hand to
// NOI 2014's "4"), then keeps running.
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Main {
    // NOI 2014 asks a target hand at the end: a valid one for a bot that never melds.
    static final String TARGET = "B1 B2 B3 B4 B5 B6 B7 B8 B9 W1 W2 W3 W5 W5";

    static String lastRequest(String input) {
        int start = input.indexOf("\"requests\":[");
        String rest = start >= 0 ? input.substring(start + 12) : input;
        int end = rest.indexOf(']');
        String list = end >= 0 ? rest.substring(0, end) : rest;
        String[] items = list.split("\",\"");
        return items[items.length - 1].replace("\"", "");
    }

    static String respond(String request) {
        String[] words = request.trim().split(" ");
        if (words.length == 2 && words[0].equals("2")) return "PLAY " + words[1];
        if (words.length == 1 && words[0].equals("4")) return TARGET;  // NOI 2014's end
        return "PASS";
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        if (args.length > 0 && args[0].equals("json")) {
            String line = in.readLine();
            String request = lastRequest(line == null ? "" : line);
            while (true) {
                System.out.println("{\"response\":\"" + respond(request) + "\"}");
                System.out.println(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<");
                System.out.flush();
                line = in.readLine();
                if (line == null) return;
                request = line.trim().replace("\"", "");
            }
        }
        System.out.println("join");
        System.out.flush();
        int me = -1;
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split(" ");
            if (w.length == 0 || w[0].isEmpty()) continue;
            if (w[0].equals("id")) me = Integer.parseInt(w[1]);
            String answer = null;
            if (w[0].equals("pick")) answer = "out " + w[1];
            else if ((w[0].equals("mout") || w[0].equals("mjgang")) && Integer.parseInt(w[1]) != me)
                answer = "pass";
            if (answer != null) {
                System.out.println(answer);
                System.out.flush();
            }
        }
    }
}
