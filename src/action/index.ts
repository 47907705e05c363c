// Entry of the Action: runs it, nothing else.
import { run } from './main.js';

void run();
