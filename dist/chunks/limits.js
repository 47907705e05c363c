import fs$1, { statSync as statSync$1, realpathSync as realpathSync$1 } from 'node:fs';
import { stat as stat$1 } from 'node:fs/promises';
import path from 'node:path';
import { g as getDefaultExportFromCjs } from './_commonjsHelpers.js';
import * as fs from 'fs';
import { statSync, stat, realpathSync, realpath, readdirSync, readdir } from 'fs';
import { sep, basename, dirname, resolve, normalize, relative, posix, isAbsolute } from 'path';
import { fileURLToPath } from 'url';
import { createRequire } from 'module';
import { U as UsageError, a as fileSystemFailure } from './errors.js';
import { S as SOURCES, K as evidenceSource } from './evidence-sources.js';

var utils = {};

var constants;var hasRequiredConstants;function requireConstants(){if(hasRequiredConstants)return constants;hasRequiredConstants=1;const A="\\\\/";const _=`[^${A}]`;const R=0;const E="\\.";const C="\\+";const H="\\?";const S="\\/";const t="(?=.)";const s="[^/]";const n=`(?:${S}|$)`;const o=`(?:^|${S})`;const T=`${E}{1,2}${n}`;const L=`(?!${E})`;const O=`(?!${o}${T})`;const e=`(?!${E}{0,1}${n})`;const N=`(?!${T})`;const $=`[^.${S}]`;const c=`${s}*?`;const r="/";const a={DOT_LITERAL:E,PLUS_LITERAL:C,QMARK_LITERAL:H,SLASH_LITERAL:S,ONE_CHAR:t,QMARK:s,END_ANCHOR:n,DOTS_SLASH:T,NO_DOT:L,NO_DOTS:O,NO_DOT_SLASH:e,NO_DOTS_SLASH:N,QMARK_NO_DOT:$,STAR:c,START_ANCHOR:o,SEP:r};const I={...a,SLASH_LITERAL:`[${A}]`,QMARK:_,STAR:`${_}*?`,DOTS_SLASH:`${E}{1,2}(?:[${A}]|$)`,NO_DOT:`(?!${E})`,NO_DOTS:`(?!(?:^|[${A}])${E}{1,2}(?:[${A}]|$))`,NO_DOT_SLASH:`(?!${E}{0,1}(?:[${A}]|$))`,NO_DOTS_SLASH:`(?!${E}{1,2}(?:[${A}]|$))`,QMARK_NO_DOT:`[^.${A}]`,START_ANCHOR:`(?:^|[${A}])`,END_ANCHOR:`(?:[${A}]|$)`,SEP:"\\"};const D={__proto__:null,alnum:"a-zA-Z0-9",alpha:"a-zA-Z",ascii:"\\x00-\\x7F",blank:" \\t",cntrl:"\\x00-\\x1F\\x7F",digit:"0-9",graph:"\\x21-\\x7E",lower:"a-z",print:"\\x20-\\x7E ",punct:"\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",space:" \\t\\r\\n\\v\\f",upper:"A-Z",word:"A-Za-z0-9_",xdigit:"A-Fa-f0-9"};constants={DEFAULT_MAX_EXTGLOB_RECURSION:R,MAX_LENGTH:1024*64,POSIX_REGEX_SOURCE:D,REGEX_BACKSLASH:/\\(?![*+?^${}(|)[\]])/g,REGEX_NON_SPECIAL_CHARS:/^[^@![\].,$*+?^{}()|\\/]+/,REGEX_SPECIAL_CHARS:/[-*+?.^${}(|)[\]]/,REGEX_SPECIAL_CHARS_BACKREF:/(\\?)((\W)(\3*))/g,REGEX_SPECIAL_CHARS_GLOBAL:/([-*+?.^${}(|)[\]])/g,REGEX_REMOVE_BACKSLASH:/(?:\[.*?[^\\]\]|\\(?=.))/g,REPLACEMENTS:{__proto__:null,"***":"*","**/**":"**","**/**/**":"**"},CHAR_0:48,CHAR_9:57,CHAR_UPPERCASE_A:65,CHAR_LOWERCASE_A:97,CHAR_UPPERCASE_Z:90,CHAR_LOWERCASE_Z:122,CHAR_LEFT_PARENTHESES:40,CHAR_RIGHT_PARENTHESES:41,CHAR_ASTERISK:42,CHAR_AMPERSAND:38,CHAR_AT:64,CHAR_BACKWARD_SLASH:92,CHAR_CARRIAGE_RETURN:13,CHAR_CIRCUMFLEX_ACCENT:94,CHAR_COLON:58,CHAR_COMMA:44,CHAR_DOT:46,CHAR_DOUBLE_QUOTE:34,CHAR_EQUAL:61,CHAR_EXCLAMATION_MARK:33,CHAR_FORM_FEED:12,CHAR_FORWARD_SLASH:47,CHAR_GRAVE_ACCENT:96,CHAR_HASH:35,CHAR_HYPHEN_MINUS:45,CHAR_LEFT_ANGLE_BRACKET:60,CHAR_LEFT_CURLY_BRACE:123,CHAR_LEFT_SQUARE_BRACKET:91,CHAR_LINE_FEED:10,CHAR_NO_BREAK_SPACE:160,CHAR_PERCENT:37,CHAR_PLUS:43,CHAR_QUESTION_MARK:63,CHAR_RIGHT_ANGLE_BRACKET:62,CHAR_RIGHT_CURLY_BRACE:125,CHAR_RIGHT_SQUARE_BRACKET:93,CHAR_SEMICOLON:59,CHAR_SINGLE_QUOTE:39,CHAR_SPACE:32,CHAR_TAB:9,CHAR_UNDERSCORE:95,CHAR_VERTICAL_LINE:124,CHAR_ZERO_WIDTH_NOBREAK_SPACE:65279,extglobChars(A){return {"!":{type:"negate",open:"(?:(?!(?:",close:`))${A.STAR})`},"?":{type:"qmark",open:"(?:",close:")?"},"+":{type:"plus",open:"(?:",close:")+"},"*":{type:"star",open:"(?:",close:")*"},"@":{type:"at",open:"(?:",close:")"}}},globChars(A){return A===true?I:a}};return constants}

var hasRequiredUtils;function requireUtils(){if(hasRequiredUtils)return utils;hasRequiredUtils=1;(function(e){const{REGEX_BACKSLASH:r,REGEX_REMOVE_BACKSLASH:s,REGEX_SPECIAL_CHARS:t,REGEX_SPECIAL_CHARS_GLOBAL:o}=requireConstants();e.isObject=e=>e!==null&&typeof e==="object"&&!Array.isArray(e);e.hasRegexChars=e=>t.test(e);e.isRegexChar=r=>r.length===1&&e.hasRegexChars(r);e.escapeRegex=e=>e.replace(o,"\\$1");e.toPosixSlashes=e=>e.replace(r,"/");e.isWindows=()=>{if(typeof navigator!=="undefined"&&navigator.platform){const e=navigator.platform.toLowerCase();return e==="win32"||e==="windows"}if(typeof process!=="undefined"&&process.platform){return process.platform==="win32"}return false};e.removeBackslashes=e=>e.replace(s,e=>e==="\\"?"":e);e.escapeLast=(r,s,t)=>{const o=r.lastIndexOf(s,t);if(o===-1)return r;if(r[o-1]==="\\")return e.escapeLast(r,s,o-1);return `${r.slice(0,o)}\\${r.slice(o)}`};e.removePrefix=(e,r={})=>{let s=e;if(s.startsWith("./")){s=s.slice(2);r.prefix="./";}return s};e.wrapOutput=(e,r={},s={})=>{const t=s.contains?"":"^";const o=s.contains?"":"$";let i=`${t}(?:${e})${o}`;if(r.negated===true){i=`(?:^(?!${i}).*$)`;}return i};e.basename=(e,{windows:r}={})=>{const s=e.split(r?/[\\/]/:"/");const t=s[s.length-1];if(t===""){return s[s.length-2]}return t};})(utils);return utils}

var scan_1;var hasRequiredScan;function requireScan(){if(hasRequiredScan)return scan_1;hasRequiredScan=1;const e=requireUtils();const{CHAR_ASTERISK:t,CHAR_AT:r,CHAR_BACKWARD_SLASH:i,CHAR_COMMA:s,CHAR_DOT:u,CHAR_EXCLAMATION_MARK:n,CHAR_FORWARD_SLASH:o,CHAR_LEFT_CURLY_BRACE:a,CHAR_LEFT_PARENTHESES:l,CHAR_LEFT_SQUARE_BRACKET:c,CHAR_PLUS:f,CHAR_QUESTION_MARK:_,CHAR_RIGHT_CURLY_BRACE:h,CHAR_RIGHT_PARENTHESES:b,CHAR_RIGHT_SQUARE_BRACKET:A}=requireConstants();const R=e=>e===o||e===i;const p=e=>{if(e.isPrefix!==true){e.depth=e.isGlobstar?Infinity:1;}};const k=(k,d)=>{const m=d||{};const C=k.length-1;const H=m.parts===true||m.tokens===true||m.scanToEnd===true;const E=[];const S=[];const g=[];let G=k;let T=-1;let B=0;let q=0;let x=false;let v=false;let L=false;let $=false;let j=false;let w=false;let I=false;let D=false;let K=false;let U=false;let M=0;let O;let P;let F={value:"",depth:0,isGlob:false};const N=()=>T>=C;const y=()=>G.charCodeAt(T+1);const Q=()=>{O=P;return G.charCodeAt(++T)};while(T<C){P=Q();let e;if(P===i){I=F.backslashes=true;P=Q();if(P===a){w=true;}continue}if(w===true||P===a){M++;while(N()!==true&&(P=Q())){if(P===i){I=F.backslashes=true;Q();continue}if(P===a){M++;continue}if(w!==true&&P===u&&(P=Q())===u){x=F.isBrace=true;L=F.isGlob=true;U=true;if(H===true){continue}break}if(w!==true&&P===s){x=F.isBrace=true;L=F.isGlob=true;U=true;if(H===true){continue}break}if(P===h){M--;if(M===0){w=false;x=F.isBrace=true;U=true;break}}}if(H===true){continue}break}if(P===o){E.push(T);S.push(F);F={value:"",depth:0,isGlob:false};if(U===true)continue;if(O===u&&T===B+1){B+=2;continue}q=T+1;continue}if(m.noext!==true){const e=P===f||P===r||P===t||P===_||P===n;if(e===true&&y()===l){L=F.isGlob=true;$=F.isExtglob=true;U=true;if(P===n&&T===B){K=true;}if(H===true){let e=0;while(N()!==true&&(P=Q())){if(P===i){I=F.backslashes=true;Q();continue}if(P===l){e++;continue}if(P===b&&--e===0){U=true;break}}continue}break}}if(P===t){if(O===t)j=F.isGlobstar=true;L=F.isGlob=true;U=true;if(H===true){continue}break}if(P===_){L=F.isGlob=true;U=true;if(H===true){continue}break}if(P===c){while(N()!==true&&(e=Q())){if(e===i){I=F.backslashes=true;Q();continue}if(e===A){v=F.isBracket=true;L=F.isGlob=true;U=true;break}}if(H===true){continue}break}if(m.nonegate!==true&&P===n&&T===B){D=F.negated=true;B++;continue}if(m.noparen!==true&&P===l){L=F.isGlob=true;if(H===true){let e=1;while(N()!==true&&(P=Q())){if(P===i){I=F.backslashes=true;Q();continue}if(P===l){e++;continue}if(P===b&&--e===0){U=true;break}}continue}break}if(L===true){U=true;if(H===true){continue}break}}if(m.noext===true){$=false;L=false;}let W=G;let Y="";let X="";if(B>0){Y=G.slice(0,B);G=G.slice(B);q-=B;}if(W&&L===true&&q>0){W=G.slice(0,q);X=G.slice(q);}else if(L===true){W="";X=G;}else {W=G;}if(W&&W!==""&&W!=="/"&&W!==G){if(R(W.charCodeAt(W.length-1))){W=W.slice(0,-1);}}if(m.unescape===true){if(X)X=e.removeBackslashes(X);if(W&&I===true){W=e.removeBackslashes(W);}}const z={prefix:Y,input:k,start:B,base:W,glob:X,isBrace:x,isBracket:v,isGlob:L,isExtglob:$,isGlobstar:j,negated:D,negatedExtglob:K};if(m.tokens===true){z.maxDepth=0;if(!R(P)){S.push(F);}z.tokens=S;}if(m.parts===true||m.tokens===true){let e;for(let t=0;t<E.length;t++){const r=e!==undefined?e+1:B;const i=E[t];const s=k.slice(r,i);if(m.tokens){if(t===0&&B!==0){S[t].isPrefix=true;S[t].value=Y;}else {S[t].value=s;}p(S[t]);z.maxDepth+=S[t].depth;}if(i>=B){g.push(s);e=i;}}const t=e!==undefined?e+1:B;const r=k.slice(t);g.push(r);if(m.tokens&&e&&e+1<k.length){S[S.length-1].value=r;p(S[S.length-1]);z.maxDepth+=S[S.length-1].depth;}z.slashes=E;z.parts=g;}return z};scan_1=k;return scan_1}

var parse_1;var hasRequiredParse;function requireParse(){if(hasRequiredParse)return parse_1;hasRequiredParse=1;const t=requireConstants();const e=requireUtils();const{MAX_LENGTH:u,POSIX_REGEX_SOURCE:n,REGEX_NON_SPECIAL_CHARS:o,REGEX_SPECIAL_CHARS_BACKREF:r,REPLACEMENTS:s}=t;const a=(t,u)=>{if(typeof u.expandRange==="function"){return u.expandRange(...t,u)}t.sort();const n=`[${t.join("-")}]`;try{new RegExp(n);}catch(u){return t.map(t=>e.escapeRegex(t)).join("..")}return n};const i=(t,e)=>`Missing ${t}: "${e}" - use "\\\\${e}" to match literal characters`;const p=t=>{const e=[];let u=0;let n=0;let o=0;let r="";let s=false;for(const a of t){if(s===true){r+=a;s=false;continue}if(a==="\\"){r+=a;s=true;continue}if(a==='"'){o=o===1?0:1;r+=a;continue}if(o===0){if(a==="["){u++;}else if(a==="]"&&u>0){u--;}else if(u===0){if(a==="("){n++;}else if(a===")"&&n>0){n--;}else if(a==="|"&&n===0){e.push(r);r="";continue}}}r+=a;}e.push(r);return e};const c=t=>{let e=false;for(const u of t){if(e===true){e=false;continue}if(u==="\\"){e=true;continue}if(/[?*+@!()[\]{}]/.test(u)){return false}}return true};const l=t=>{let e=t.trim();let u=true;while(u===true){u=false;if(/^@\([^\\()[\]{}|]+\)$/.test(e)){e=e.slice(2,-1);u=true;}}if(!c(e)){return}return e.replace(/\\(.)/g,"$1")};const f=t=>{const e=t.map(l).filter(Boolean);for(let t=0;t<e.length;t++){for(let u=t+1;u<e.length;u++){const n=e[t];const o=e[u];const r=n[0];if(!r||n!==r.repeat(n.length)||o!==r.repeat(o.length)){continue}if(n===o||n.startsWith(o)||o.startsWith(n)){return true}}}return false};const y=(t,e=true)=>{if(t[0]!=="+"&&t[0]!=="*"||t[1]!=="("){return}let u=0;let n=0;let o=0;let r=false;for(let s=1;s<t.length;s++){const a=t[s];if(r===true){r=false;continue}if(a==="\\"){r=true;continue}if(a==='"'){o=o===1?0:1;continue}if(o===1){continue}if(a==="["){u++;continue}if(a==="]"&&u>0){u--;continue}if(u>0){continue}if(a==="("){n++;continue}if(a===")"){n--;if(n===0){if(e===true&&s!==t.length-1){return}return {type:t[0],body:t.slice(2,s),end:s}}}}};const g=t=>{const u=t.length===1?e.escapeRegex(t[0]):`[${t.map(t=>e.escapeRegex(t)).join("")}]`;return `${u}*`};const h=t=>{let e=0;const u=[];while(e<t.length){const n=y(t.slice(e),false);if(!n||n.type!=="*"){return}const o=p(n.body).map(t=>t.trim());if(o.length!==1){return}const r=l(o[0]);if(!r||r.length!==1){return}u.push(r);e+=n.end+1;}if(u.length<1){return}return u};const x=t=>{let e=0;let u=t.trim();let n=y(u);while(n){e++;u=n.body.trim();n=y(u);}return e};const b=(e,u)=>{if(u.maxExtglobRecursion===false){return {risky:false}}const n=typeof u.maxExtglobRecursion==="number"?u.maxExtglobRecursion:t.DEFAULT_MAX_EXTGLOB_RECURSION;const o=p(e).map(t=>t.trim());if(o.length>1){if(o.some(t=>t==="")||o.some(t=>/^[*?]+$/.test(t))||f(o)){return {risky:true}}}const r=[];let s=false;let a=true;for(const t of o){const e=h(t);if(e){s=true;r.push(...e);continue}const u=l(t);if(u&&u.length===1){r.push(u);continue}a=false;if(x(t)>n){return {risky:true}}}if(s){return a?{risky:true,safeOutput:g([...new Set(r)])}:{risky:true}}return {risky:false}};const $=(p,c)=>{if(typeof p!=="string"){throw new TypeError("Expected a string")}p=s[p]||p;const l={...c};const f=typeof l.maxLength==="number"?Math.min(u,l.maxLength):u;let y=p.length;if(y>f){throw new SyntaxError(`Input length: ${y}, exceeds maximum allowed length: ${f}`)}const g={type:"bos",value:"",output:l.prepend||""};const h=[g];const x=l.capture?"":"?:";const v=t.globChars(l.windows);const d=t.extglobChars(v);const{DOT_LITERAL:m,PLUS_LITERAL:_,SLASH_LITERAL:k,ONE_CHAR:S,DOTS_SLASH:w,NO_DOT:R,NO_DOT_SLASH:E,NO_DOTS_SLASH:O,QMARK:A,QMARK_NO_DOT:L,STAR:T,START_ANCHOR:I}=v;const q=t=>`(${x}(?:(?!${I}${t.dot?w:m}).)*?)`;const C=l.dot?"":R;const H=l.dot?A:L;let N=l.bash===true?q(l):T;if(l.capture){N=`(${N})`;}if(typeof l.noext==="boolean"){l.noextglob=l.noext;}const D={input:p,index:-1,start:0,dot:l.dot===true,consumed:"",output:"",prefix:"",backtrack:false,negated:false,brackets:0,braces:0,parens:0,quotes:0,globstar:false,tokens:h};p=e.removePrefix(p,D);y=p.length;const P=[];const B=[];const j=[];let M=g;let X;const G=()=>D.index===y-1;const U=D.peek=(t=1)=>p[D.index+t];const K=D.advance=()=>p[++D.index]||"";const Q=()=>p.slice(D.index+1);const F=(t="",e=0)=>{D.consumed+=t;D.index+=e;};const W=t=>{D.output+=t.output!=null?t.output:t.value;F(t.value);};const z=()=>{let t=1;while(U()==="!"&&(U(2)!=="("||U(3)==="?")){K();D.start++;t++;}if(t%2===0){return false}D.negated=true;D.start++;return true};const J=t=>{D[t]++;j.push(t);};const V=t=>{D[t]--;j.pop();};const Y=t=>{if(M.type==="globstar"){const e=D.braces>0&&(t.type==="comma"||t.type==="brace");const u=t.extglob===true||P.length&&(t.type==="pipe"||t.type==="paren");if(t.type!=="slash"&&t.type!=="paren"&&!e&&!u){D.output=D.output.slice(0,-M.output.length);M.type="star";M.value="*";M.output=N;D.output+=M.output;}}if(P.length&&t.type!=="paren"){P[P.length-1].inner+=t.value;}if(t.value||t.output)W(t);if(M&&M.type==="text"&&t.type==="text"){M.output=(M.output||M.value)+t.value;M.value+=t.value;return}t.prev=M;h.push(t);M=t;};const Z=(t,e)=>{const u={...d[e],conditions:1,inner:""};u.prev=M;u.parens=D.parens;u.output=D.output;u.startIndex=D.index;u.tokensIndex=h.length;const n=(l.capture?"(":"")+u.open;J("parens");Y({type:t,value:e,output:D.output?"":S});Y({type:"paren",extglob:true,value:K(),output:n});P.push(u);};const tt=t=>{const u=p.slice(t.startIndex,D.index+1);const n=p.slice(t.startIndex+2,D.index);const o=b(n,l);if((t.type==="plus"||t.type==="star")&&o.risky){const n=o.safeOutput?(t.output?"":S)+(l.capture?`(${o.safeOutput})`:o.safeOutput):undefined;const r=h[t.tokensIndex];r.type="text";r.value=u;r.output=n||e.escapeRegex(u);for(let e=t.tokensIndex+1;e<h.length;e++){h[e].value="";h[e].output="";delete h[e].suffix;}D.output=t.output+r.output;D.backtrack=true;Y({type:"paren",extglob:true,value:X,output:""});V("parens");return}let r=t.close+(l.capture?")":"");let s;if(t.type==="negate"){let e=N;if(t.inner&&t.inner.length>1&&t.inner.includes("/")){e=q(l);}if(e!==N||G()||/^\)+$/.test(Q())){r=t.close=`)$))${e}`;}if(t.inner.includes("*")&&(s=Q())&&/^\.[^\\/.]+$/.test(s)){const u=$(s,{...c,fastpaths:false}).output;r=t.close=`)${u})${e})`;}if(t.prev.type==="bos"){D.negatedExtglob=true;}}Y({type:"paren",extglob:true,value:X,output:r});V("parens");};if(l.fastpaths!==false&&!/(^[*!]|[/()[\]{}"])/.test(p)){let t=false;let u=p.replace(r,(e,u,n,o,r,s)=>{if(o==="\\"){t=true;return e}if(o==="?"){if(u){return u+o+(r?A.repeat(r.length):"")}if(s===0){return H+(r?A.repeat(r.length):"")}return A.repeat(n.length)}if(o==="."){return m.repeat(n.length)}if(o==="*"){if(u){return u+o+(r?N:"")}return N}return u?e:`\\${e}`});if(t===true){if(l.unescape===true){u=u.replace(/\\/g,"");}else {u=u.replace(/\\+/g,t=>t.length%2===0?"\\\\":t?"\\":"");}}if(u===p&&l.contains===true){D.output=p;return D}D.output=e.wrapOutput(u,D,c);return D}while(!G()){X=K();if(X==="\0"){continue}if(X==="\\"){const t=U();if(t==="/"&&l.bash!==true){continue}if(t==="."||t===";"){continue}if(!t){X+="\\";Y({type:"text",value:X});continue}const e=/^\\+/.exec(Q());let u=0;if(e&&e[0].length>2){u=e[0].length;D.index+=u;if(u%2!==0){X+="\\";}}if(l.unescape===true){X=K();}else {X+=K();}if(D.brackets===0){Y({type:"text",value:X});continue}}if(D.brackets>0&&(X!=="]"||M.value==="["||M.value==="[^")){if(l.posix!==false&&X===":"){const t=M.value.slice(1);if(t.includes("[")){M.posix=true;if(t.includes(":")){const t=M.value.lastIndexOf("[");const e=M.value.slice(0,t);const u=M.value.slice(t+2);const o=n[u];if(o){M.value=e+o;D.backtrack=true;K();if(!g.output&&h.indexOf(M)===1){g.output=S;}continue}}}}if(X==="["&&U()!==":"||X==="-"&&U()==="]"){X=`\\${X}`;}if(X==="]"&&(M.value==="["||M.value==="[^")){X=`\\${X}`;}if(l.posix===true&&X==="!"&&M.value==="["){X="^";}M.value+=X;W({value:X});continue}if(D.quotes===1&&X!=='"'){X=e.escapeRegex(X);M.value+=X;W({value:X});continue}if(X==='"'){D.quotes=D.quotes===1?0:1;if(l.keepQuotes===true){Y({type:"text",value:X});}continue}if(X==="("){J("parens");Y({type:"paren",value:X});continue}if(X===")"){if(D.parens===0&&l.strictBrackets===true){throw new SyntaxError(i("opening","("))}const t=P[P.length-1];if(t&&D.parens===t.parens+1){tt(P.pop());continue}Y({type:"paren",value:X,output:D.parens?")":"\\)"});V("parens");continue}if(X==="["){if(l.nobracket===true||!Q().includes("]")){if(l.nobracket!==true&&l.strictBrackets===true){throw new SyntaxError(i("closing","]"))}X=`\\${X}`;}else {J("brackets");}Y({type:"bracket",value:X});continue}if(X==="]"){if(l.nobracket===true||M&&M.type==="bracket"&&M.value.length===1){Y({type:"text",value:X,output:`\\${X}`});continue}if(D.brackets===0){if(l.strictBrackets===true){throw new SyntaxError(i("opening","["))}Y({type:"text",value:X,output:`\\${X}`});continue}V("brackets");const t=M.value.slice(1);if(M.posix!==true&&t[0]==="^"&&!t.includes("/")){X=`/${X}`;}M.value+=X;W({value:X});if(l.literalBrackets===false||e.hasRegexChars(t)){continue}const u=e.escapeRegex(M.value);D.output=D.output.slice(0,-M.value.length);if(l.literalBrackets===true){D.output+=u;M.value=u;continue}M.value=`(${x}${u}|${M.value})`;D.output+=M.value;continue}if(X==="{"&&l.nobrace!==true){J("braces");const t={type:"brace",value:X,output:"(",outputIndex:D.output.length,tokensIndex:D.tokens.length};B.push(t);Y(t);continue}if(X==="}"){const t=B[B.length-1];if(l.nobrace===true||!t){Y({type:"text",value:X,output:X});continue}let e=")";if(t.dots===true){const t=h.slice();const u=[];for(let e=t.length-1;e>=0;e--){h.pop();if(t[e].type==="brace"){break}if(t[e].type!=="dots"){u.unshift(t[e].value);}}e=a(u,l);D.backtrack=true;}if(t.comma!==true&&t.dots!==true){const u=D.output.slice(0,t.outputIndex);const n=D.tokens.slice(t.tokensIndex);t.value=t.output="\\{";X=e="\\}";D.output=u;for(const t of n){D.output+=t.output||t.value;}}Y({type:"brace",value:X,output:e});V("braces");B.pop();continue}if(X==="|"){if(P.length>0){P[P.length-1].conditions++;}Y({type:"text",value:X});continue}if(X===","){let t=X;const e=B[B.length-1];if(e&&j[j.length-1]==="braces"){e.comma=true;t="|";}Y({type:"comma",value:X,output:t});continue}if(X==="/"){if(M.type==="dot"&&D.index===D.start+1){D.start=D.index+1;D.consumed="";D.output="";h.pop();M=g;continue}Y({type:"slash",value:X,output:k});continue}if(X==="."){if(D.braces>0&&M.type==="dot"){if(M.value===".")M.output=m;const t=B[B.length-1];M.type="dots";M.output+=X;M.value+=X;t.dots=true;continue}if(D.braces+D.parens===0&&M.type!=="bos"&&M.type!=="slash"){Y({type:"text",value:X,output:m});continue}Y({type:"dot",value:X,output:m});continue}if(X==="?"){const t=M&&M.value==="(";if(!t&&l.noextglob!==true&&U()==="("&&U(2)!=="?"){Z("qmark",X);continue}if(M&&M.type==="paren"){const t=U();let e=X;if(M.value==="("&&!/[!=<:]/.test(t)||t==="<"&&!/<([!=]|\w+>)/.test(Q())){e=`\\${X}`;}Y({type:"text",value:X,output:e});continue}if(l.dot!==true&&(M.type==="slash"||M.type==="bos")){Y({type:"qmark",value:X,output:L});continue}Y({type:"qmark",value:X,output:A});continue}if(X==="!"){if(l.noextglob!==true&&U()==="("){if(U(2)!=="?"||!/[!=<:]/.test(U(3))){Z("negate",X);continue}}if(l.nonegate!==true&&D.index===0){z();continue}}if(X==="+"){if(l.noextglob!==true&&U()==="("&&U(2)!=="?"){Z("plus",X);continue}if(M&&M.value==="("||l.regex===false){Y({type:"plus",value:X,output:_});continue}if(M&&(M.type==="bracket"||M.type==="paren"||M.type==="brace")||D.parens>0){Y({type:"plus",value:X});continue}Y({type:"plus",value:_});continue}if(X==="@"){if(l.noextglob!==true&&U()==="("&&U(2)!=="?"){Y({type:"at",extglob:true,value:X,output:""});continue}Y({type:"text",value:X});continue}if(X!=="*"){if(X==="$"||X==="^"){X=`\\${X}`;}const t=o.exec(Q());if(t){X+=t[0];D.index+=t[0].length;}Y({type:"text",value:X});continue}if(M&&(M.type==="globstar"||M.star===true)){M.type="star";M.star=true;M.value+=X;M.output=N;D.backtrack=true;D.globstar=true;F(X);continue}let t=Q();if(l.noextglob!==true&&/^\([^?]/.test(t)){Z("star",X);continue}if(M.type==="star"){if(l.noglobstar===true){F(X);continue}const e=M.prev;const u=e.prev;const n=e.type==="slash"||e.type==="bos";const o=u&&(u.type==="star"||u.type==="globstar");if(l.bash===true&&(!n||t[0]&&t[0]!=="/")){Y({type:"star",value:X,output:""});continue}const r=D.braces>0&&(e.type==="comma"||e.type==="brace");const s=P.length&&(e.type==="pipe"||e.type==="paren");if(!n&&e.type!=="paren"&&!r&&!s){Y({type:"star",value:X,output:""});continue}while(t.slice(0,3)==="/**"){const e=p[D.index+4];if(e&&e!=="/"){break}t=t.slice(3);F("/**",3);}const a=G()||D.parens>0&&t===")".repeat(D.parens)&&!P.some(t=>t.type==="negate");if(e.type==="bos"&&G()){M.type="globstar";M.value+=X;M.output=q(l);D.output=M.output;D.globstar=true;F(X);continue}if(e.type==="slash"&&e.prev.type!=="bos"&&!o&&a){D.output=D.output.slice(0,-(e.output+M.output).length);e.output=`(?:${e.output}`;M.type="globstar";M.output=q(l)+(l.strictSlashes?")":"|$)");M.value+=X;D.globstar=true;D.output+=e.output+M.output;F(X);continue}if(e.type==="slash"&&e.prev.type!=="bos"&&t[0]==="/"){const u=t[1]!==void 0?"|$":"";D.output=D.output.slice(0,-(e.output+M.output).length);e.output=`(?:${e.output}`;M.type="globstar";M.output=`${q(l)}${k}|${k}${u})`;M.value+=X;D.output+=e.output+M.output;D.globstar=true;F(X+K());Y({type:"slash",value:"/",output:""});continue}if(e.type==="bos"&&t[0]==="/"){M.type="globstar";M.value+=X;M.output=`(?:^|${k}|${q(l)}${k})`;D.output=M.output;D.globstar=true;F(X+K());Y({type:"slash",value:"/",output:""});continue}D.output=D.output.slice(0,-M.output.length);M.type="globstar";M.output=q(l);M.value+=X;D.output+=M.output;D.globstar=true;F(X);continue}const u={type:"star",value:X,output:N};if(l.bash===true){u.output=".*?";if(M.type==="bos"||M.type==="slash"){u.output=C+u.output;}Y(u);continue}if(M&&(M.type==="bracket"||M.type==="paren")&&l.regex===true){u.output=X;Y(u);continue}if(D.index===D.start||M.type==="slash"||M.type==="dot"){if(M.type==="dot"){D.output+=E;M.output+=E;}else if(l.dot===true){D.output+=O;M.output+=O;}else {D.output+=C;M.output+=C;}if(U()!=="*"){D.output+=S;M.output+=S;}}Y(u);}while(D.brackets>0){if(l.strictBrackets===true)throw new SyntaxError(i("closing","]"));D.output=e.escapeLast(D.output,"[");V("brackets");}while(D.parens>0){if(l.strictBrackets===true)throw new SyntaxError(i("closing",")"));D.output=e.escapeLast(D.output,"(");V("parens");}while(D.braces>0){if(l.strictBrackets===true)throw new SyntaxError(i("closing","}"));D.output=e.escapeLast(D.output,"{");V("braces");}if(l.strictSlashes!==true&&(M.type==="star"||M.type==="bracket")){Y({type:"maybe_slash",value:"",output:`${k}?`});}if(D.backtrack===true){D.output="";for(const t of D.tokens){D.output+=t.output!=null?t.output:t.value;if(t.suffix){D.output+=t.suffix;}}}return D};$.fastpaths=(n,o)=>{const r={...o};const a=typeof r.maxLength==="number"?Math.min(u,r.maxLength):u;const i=n.length;if(i>a){throw new SyntaxError(`Input length: ${i}, exceeds maximum allowed length: ${a}`)}n=s[n]||n;const{DOT_LITERAL:p,SLASH_LITERAL:c,ONE_CHAR:l,DOTS_SLASH:f,NO_DOT:y,NO_DOTS:g,NO_DOTS_SLASH:h,STAR:x,START_ANCHOR:b}=t.globChars(r.windows);const $=r.dot?g:y;const v=r.dot?h:y;const d=r.capture?"":"?:";const m={negated:false,prefix:""};let _=r.bash===true?".*?":x;if(r.capture){_=`(${_})`;}const k=t=>{if(t.noglobstar===true)return _;return `(${d}(?:(?!${b}${t.dot?f:p}).)*?)`};const S=t=>{switch(t){case "*":return `${$}${l}${_}`;case ".*":return `${p}${l}${_}`;case "*.*":return `${$}${_}${p}${l}${_}`;case "*/*":return `${$}${_}${c}${l}${v}${_}`;case "**":return $+k(r);case "**/*":return `(?:${$}${k(r)}${c})?${v}${l}${_}`;case "**/*.*":return `(?:${$}${k(r)}${c})?${v}${_}${p}${l}${_}`;case "**/.*":return `(?:${$}${k(r)}${c})?${p}${l}${_}`;default:{const e=/^(.*?)\.(\w+)$/.exec(t);if(!e)return;const u=S(e[1]);if(!u)return;return u+p+e[2]}}};const w=e.removePrefix(n,m);let R=S(w);if(R&&r.strictSlashes!==true){R+=`${c}?`;}return R};parse_1=$;return parse_1}

var picomatch_1$1;var hasRequiredPicomatch$1;function requirePicomatch$1(){if(hasRequiredPicomatch$1)return picomatch_1$1;hasRequiredPicomatch$1=1;const e=requireScan();const t=requireParse();const o=requireUtils();const r=requireConstants();const s=e=>e&&typeof e==="object"&&!Array.isArray(e);const a=(e,t,o=false)=>{if(Array.isArray(e)){const r=e.map(e=>a(e,t,o));const s=e=>{for(const t of r){const o=t(e);if(o)return o}return false};return s}const r=s(e)&&e.tokens&&e.input;if(e===""||typeof e!=="string"&&!r){throw new TypeError("Expected pattern to be a non-empty string")}const n=t||{};const i=n.windows;const c=r?a.compileRe(e,t):a.makeRe(e,t,false,true);const u=c.state;delete c.state;let f=()=>false;if(n.ignore){const e={...t,ignore:null,onMatch:null,onResult:null};f=a(n.ignore,e,o);}const p=(o,r=false)=>{const{isMatch:s,match:p,output:m}=a.test(o,c,t,{glob:e,posix:i});const l={glob:e,state:u,regex:c,posix:i,input:o,output:m,match:p,isMatch:s};if(typeof n.onResult==="function"){n.onResult(l);}if(s===false){l.isMatch=false;return r?l:false}if(f(o)){if(typeof n.onIgnore==="function"){n.onIgnore(l);}l.isMatch=false;return r?l:false}if(typeof n.onMatch==="function"){n.onMatch(l);}return r?l:true};if(o){p.state=u;}return p};a.test=(e,t,r,{glob:s,posix:n}={})=>{if(typeof e!=="string"){throw new TypeError("Expected input to be a string")}if(e===""){return {isMatch:false,output:""}}const i=r||{};const c=i.format||(n?o.toPosixSlashes:null);let u=e===s;let f=u&&c?c(e):e;if(u===false){f=c?c(e):e;u=f===s;}if(u===false||i.capture===true){if(i.matchBase===true||i.basename===true){u=a.matchBase(e,t,r,n);}else {u=t.exec(f);}}return {isMatch:Boolean(u),match:u,output:f}};a.matchBase=(e,t,r,s=r&&r.windows)=>{const n=t instanceof RegExp?t:a.makeRe(t,r);return n.test(o.basename(e,{windows:s}))};a.isMatch=(e,t,o)=>a(t,o)(e);a.parse=(e,o)=>{if(Array.isArray(e))return e.map(e=>a.parse(e,o));return t(e,{...o,fastpaths:false})};a.scan=(t,o)=>e(t,o);a.compileRe=(e,t,o=false,r=false)=>{if(o===true){return e.output}const s=t||{};const n=s.contains?"":"^";const i=s.contains?"":"$";let c=`${n}(?:${e.output})${i}`;if(e&&e.negated===true){c=`^(?!${c}).*$`;}const u=a.toRegex(c,t);if(r===true){u.state=e;}return u};a.makeRe=(e,o={},r=false,s=false)=>{if(!e||typeof e!=="string"){throw new TypeError("Expected a non-empty string")}let n={negated:false,fastpaths:true};if(o.fastpaths!==false&&(e[0]==="."||e[0]==="*")){n.output=t.fastpaths(e,o);}if(!n.output){n=t(e,o);}return a.compileRe(n,o,r,s)};a.toRegex=(e,t)=>{try{const o=t||{};return new RegExp(e,o.flags||(o.nocase?"i":""))}catch(e){if(t&&t.debug===true)throw e;return /$^/}};a.constants=r;picomatch_1$1=a;return picomatch_1$1}

var picomatch_1;var hasRequiredPicomatch;function requirePicomatch(){if(hasRequiredPicomatch)return picomatch_1;hasRequiredPicomatch=1;const e=requirePicomatch$1();const o=requireUtils();function r(r,i,c=false){if(i&&(i.windows===null||i.windows===undefined)){i={...i,windows:o.isWindows()};}return e(r,i,c)}Object.assign(r,e);picomatch_1=r;return picomatch_1}

var picomatchExports = /*@__PURE__*/ requirePicomatch();
var picomatch = /*@__PURE__*/getDefaultExportFromCjs(picomatchExports);

createRequire(import.meta.url);function cleanPath(t){let s=normalize(t);if(s.length>1&&s[s.length-1]===sep)s=s.substring(0,s.length-1);return s}const SLASHES_REGEX=/[\\/]/g;function convertSlashes(t,s){return t.replace(SLASHES_REGEX,s)}const WINDOWS_ROOT_DIR_REGEX=/^[a-z]:[\\/]$/i;function isRootDirectory(t){return t==="/"||WINDOWS_ROOT_DIR_REGEX.test(t)}function normalizePath(t,s){const{resolvePaths:e,normalizePath:i,pathSeparator:r}=s;const n=process.platform==="win32"&&t.includes("/")||t.startsWith(".");if(e)t=resolve(t);if(i||n)t=cleanPath(t);if(t===".")return "";const o=t[t.length-1]!==r;return convertSlashes(o?t+r:t,r)}function joinPathWithBasePath(t,s){return s+t}function joinPathWithRelativePath(t,s){return function(e,i){const r=i.startsWith(t);if(r)return i.slice(t.length)+e;else return convertSlashes(relative(t,i),s.pathSeparator)+s.pathSeparator+e}}function joinPath(t){return t}function joinDirectoryPath(t,s,e){return s+t+e}function build$7(t,s){const{relativePaths:e,includeBasePath:i}=s;return e&&t?joinPathWithRelativePath(t,s):i?joinPathWithBasePath:joinPath}function pushDirectoryWithRelativePath(t){return function(s,e){e.push(s.substring(t.length)||".");}}function pushDirectoryFilterWithRelativePath(t){return function(s,e,i){const r=s.substring(t.length)||".";if(i.every(t=>t(r,true)))e.push(r);}}const pushDirectory=(t,s)=>{s.push(t||".");};const pushDirectoryFilter=(t,s,e)=>{const i=t||".";if(e.every(t=>t(i,true)))s.push(i);};const empty$2=()=>{};function build$6(t,s){const{includeDirs:e,filters:i,relativePaths:r}=s;if(!e)return empty$2;if(r)return i&&i.length?pushDirectoryFilterWithRelativePath(t):pushDirectoryWithRelativePath(t);return i&&i.length?pushDirectoryFilter:pushDirectory}const pushFileFilterAndCount=(t,s,e,i)=>{if(i.every(s=>s(t,false)))e.files++;};const pushFileFilter=(t,s,e,i)=>{if(i.every(s=>s(t,false)))s.push(t);};const pushFileCount=(t,s,e,i)=>{e.files++;};const pushFile=(t,s)=>{s.push(t);};const empty$1=()=>{};function build$5(t){const{excludeFiles:s,filters:e,onlyCounts:i}=t;if(s)return empty$1;if(e&&e.length)return i?pushFileFilterAndCount:pushFileFilter;else if(i)return pushFileCount;else return pushFile}const getArray=t=>t;const getArrayGroup=()=>[""].slice(0,0);function build$4(t){return t.group?getArrayGroup:getArray}const groupFiles=(t,s,e)=>{t.push({directory:s,files:e,dir:s});};const empty=()=>{};function build$3(t){return t.group?groupFiles:empty}const resolveSymlinksAsync=function(t,s,e){const{queue:i,fs:r,options:{suppressErrors:n}}=s;i.enqueue();r.realpath(t,(o,u)=>{if(o)return i.dequeue(n?null:o,s);r.stat(u,(r,o)=>{if(r)return i.dequeue(n?null:r,s);if(o.isDirectory()&&isRecursive(t,u,s))return i.dequeue(null,s);e(o,u);i.dequeue(null,s);});});};const resolveSymlinks=function(t,s,e){const{queue:i,fs:r,options:{suppressErrors:n}}=s;i.enqueue();try{const i=r.realpathSync(t);const n=r.statSync(i);if(n.isDirectory()&&isRecursive(t,i,s))return;e(n,i);}catch(t){if(!n)throw t}};function build$2(t,s){if(!t.resolveSymlinks||t.excludeSymlinks)return null;return s?resolveSymlinks:resolveSymlinksAsync}function isRecursive(t,s,e){if(e.options.useRealPaths)return isRecursiveUsingRealPaths(s,e);let i=dirname(t);let r=1;while(i!==e.root&&r<2){const t=e.symlinks.get(i);const n=!!t&&(t===s||t.startsWith(s)||s.startsWith(t));if(n)r++;else i=dirname(i);}e.symlinks.set(t,s);return r>1}function isRecursiveUsingRealPaths(t,s){return s.visited.includes(t+s.options.pathSeparator)}const onlyCountsSync=t=>t.counts;const groupsSync=t=>t.groups;const defaultSync=t=>t.paths;const limitFilesSync=t=>t.paths.slice(0,t.options.maxFiles);const onlyCountsAsync=(t,s,e)=>{report(s,e,t.counts,t.options.suppressErrors);return null};const defaultAsync=(t,s,e)=>{report(s,e,t.paths,t.options.suppressErrors);return null};const limitFilesAsync=(t,s,e)=>{report(s,e,t.paths.slice(0,t.options.maxFiles),t.options.suppressErrors);return null};const groupsAsync=(t,s,e)=>{report(s,e,t.groups,t.options.suppressErrors);return null};function report(t,s,e,i){if(t&&!i)s(t,e);else s(null,e);}function build$1(t,s){const{onlyCounts:e,group:i,maxFiles:r}=t;if(e)return s?onlyCountsSync:onlyCountsAsync;else if(i)return s?groupsSync:groupsAsync;else if(r)return s?limitFilesSync:limitFilesAsync;else return s?defaultSync:defaultAsync}const readdirOpts={withFileTypes:true};const walkAsync=(t,s,e,i,r)=>{t.queue.enqueue();if(i<0)return t.queue.dequeue(null,t);const{fs:n}=t;t.visited.push(s);t.counts.directories++;n.readdir(s||".",readdirOpts,(s,n=[])=>{r(n,e,i);t.queue.dequeue(t.options.suppressErrors?null:s,t);});};const walkSync=(t,s,e,i,r)=>{const{fs:n}=t;if(i<0)return;t.visited.push(s);t.counts.directories++;let o=[];try{o=n.readdirSync(s||".",readdirOpts);}catch(s){if(!t.options.suppressErrors)throw s}r(o,e,i);};function build(t){return t?walkSync:walkAsync}var Queue=class{count=0;constructor(t){this.onQueueEmpty=t;}enqueue(){this.count++;return this.count}dequeue(t,s){if(this.onQueueEmpty&&(--this.count<=0||t)){this.onQueueEmpty(t,s);if(t){s.controller.abort();this.onQueueEmpty=void 0;}}}};var Counter=class{_files=0;_directories=0;set files(t){this._files=t;}get files(){return this._files}set directories(t){this._directories=t;}get directories(){return this._directories}get dirs(){return this._directories}};var Aborter=class{aborted=false;abort(){this.aborted=true;}};var Walker=class{root;isSynchronous;state;joinPath;pushDirectory;pushFile;getArray;groupFiles;resolveSymlink;walkDirectory;callbackInvoker;constructor(t,s,e){this.isSynchronous=!e;this.callbackInvoker=build$1(s,this.isSynchronous);this.root=normalizePath(t,s);this.state={root:isRootDirectory(this.root)?this.root:this.root.slice(0,-1),paths:[""].slice(0,0),groups:[],counts:new Counter,options:s,queue:new Queue((t,s)=>this.callbackInvoker(s,t,e)),symlinks:new Map,visited:[""].slice(0,0),controller:new Aborter,fs:s.fs||fs};this.joinPath=build$7(this.root,s);this.pushDirectory=build$6(this.root,s);this.pushFile=build$5(s);this.getArray=build$4(s);this.groupFiles=build$3(s);this.resolveSymlink=build$2(s,this.isSynchronous);this.walkDirectory=build(this.isSynchronous);}start(){this.pushDirectory(this.root,this.state.paths,this.state.options.filters);this.walkDirectory(this.state,this.root,this.root,this.state.options.maxDepth,this.walk);return this.isSynchronous?this.callbackInvoker(this.state,null):null}walk=(t,s,e)=>{const{paths:i,options:{filters:r,resolveSymlinks:n,excludeSymlinks:o,exclude:u,maxFiles:l,signal:h,useRealPaths:a,pathSeparator:c},controller:p}=this.state;if(p.aborted||h&&h.aborted||l&&i.length>l)return;const y=this.getArray(this.state.paths);for(let l=0;l<t.length;++l){const h=t[l];if(h.isFile()||h.isSymbolicLink()&&!n&&!o){const t=this.joinPath(h.name,s);this.pushFile(t,y,this.state.counts,r);}else if(h.isDirectory()){let t=joinDirectoryPath(h.name,s,this.state.options.pathSeparator);if(u&&u(h.name,t))continue;this.pushDirectory(t,i,r);this.walkDirectory(this.state,t,t,e-1,this.walk);}else if(this.resolveSymlink&&h.isSymbolicLink()){let t=joinPathWithBasePath(h.name,s);this.resolveSymlink(t,this.state,(s,i)=>{if(s.isDirectory()){i=normalizePath(i,this.state.options);if(u&&u(h.name,a?i:t+c))return;this.walkDirectory(this.state,i,a?i:t+c,e-1,this.walk);}else {i=a?i:t;const s=basename(i);const e=normalizePath(dirname(i),this.state.options);i=this.joinPath(s,e);this.pushFile(i,y,this.state.counts,r);}});}}this.groupFiles(this.state.groups,s,y);}};function promise(t,s){return new Promise((e,i)=>{callback(t,s,(t,s)=>{if(t)return i(t);e(s);});})}function callback(t,s,e){let i=new Walker(t,s,e);i.start();}function sync(t,s){const e=new Walker(t,s);return e.start()}var APIBuilder=class{constructor(t,s){this.root=t;this.options=s;}withPromise(){return promise(this.root,this.options)}withCallback(t){callback(this.root,this.options,t);}sync(){return sync(this.root,this.options)}};let pm=null;var Builder=class{globCache={};options={maxDepth:Infinity,suppressErrors:true,pathSeparator:sep,filters:[]};globFunction;constructor(t){this.options={...this.options,...t};this.globFunction=this.options.globFunction;}group(){this.options.group=true;return this}withPathSeparator(t){this.options.pathSeparator=t;return this}withBasePath(){this.options.includeBasePath=true;return this}withRelativePaths(){this.options.relativePaths=true;return this}withDirs(){this.options.includeDirs=true;return this}withMaxDepth(t){this.options.maxDepth=t;return this}withMaxFiles(t){this.options.maxFiles=t;return this}withFullPaths(){this.options.resolvePaths=true;this.options.includeBasePath=true;return this}withErrors(){this.options.suppressErrors=false;return this}withSymlinks({resolvePaths:t=true}={}){this.options.resolveSymlinks=true;this.options.useRealPaths=t;return this.withFullPaths()}withAbortSignal(t){this.options.signal=t;return this}normalize(){this.options.normalizePath=true;return this}filter(t){this.options.filters.push(t);return this}onlyDirs(){this.options.excludeFiles=true;this.options.includeDirs=true;return this}exclude(t){this.options.exclude=t;return this}onlyCounts(){this.options.onlyCounts=true;return this}crawl(t){return new APIBuilder(t||".",this.options)}withGlobFunction(t){this.globFunction=t;return this}crawlWithOptions(t,s){this.options={...this.options,...s};return new APIBuilder(t||".",this.options)}glob(...t){if(this.globFunction)return this.globWithOptions(t);return this.globWithOptions(t,...[{dot:true}])}globWithOptions(t,...s){const e=this.globFunction||pm;if(!e)throw new Error("Please specify a glob function to use glob matching.");var i=this.globCache[t.join("\0")];if(!i){i=e(t,...s);this.globCache[t.join("\0")]=i;}this.options.filters.push(t=>i(t));return this}};

const isReadonlyArray=Array.isArray;const BACKSLASHES=/\\/g;const DRIVE_RELATIVE_PATH=/^[A-Za-z]:$/;const isWin=process.platform==="win32";const ONLY_PARENT_DIRECTORIES=/^(\/?\.\.)+$/;function getPartialMatcher(t,e={}){const n=t.length;const r=Array(n);const o=Array(n);let s,i;for(s=0;s<n;s++){const n=splitPattern(t[s]);r[s]=n;const a=n.length;const c=Array(a);for(i=0;i<a;i++)c[i]=picomatch(n[i],e);o[s]=c;}return t=>{const a=t.split("/");if(a[0]===".."&&ONLY_PARENT_DIRECTORIES.test(t))return true;for(s=0;s<n;s++){const t=r[s];const n=o[s];const c=a.length;const l=Math.min(c,t.length);i=0;while(i<l){const r=t[i];if(r.includes("/"))return true;if(!n[i](a[i]))break;if(!e.noglobstar&&r==="**")return true;i++;}if(i===c)return true}return false}}const WIN32_ROOT_DIR=/^[A-Z]:\/$/i;const isRoot=isWin?t=>WIN32_ROOT_DIR.test(t):t=>t==="/";function buildFormat(t,e,n){if(t===e||e.startsWith(`${t}/`)){if(n){const e=t.length+ +!isRoot(t);return (t,n)=>t.slice(e,n?-1:void 0)||"."}const r=e.slice(t.length+1);if(r)return (t,e)=>{if(t===".")return r;const n=`${r}/${t}`;return e?n.slice(0,-1):n};return (t,e)=>e&&t!=="."?t.slice(0,-1):t}if(n)return e=>posix.relative(t,e)||".";return n=>posix.relative(t,`${e}/${n}`)||"."}function buildRelative(t,e){if(e.startsWith(`${t}/`)){const n=e.slice(t.length+1);return t=>`${n}/${t}`}return n=>{const r=posix.relative(t,`${e}/${n}`);return n[n.length-1]==="/"&&r!==""?`${r}/`:r||"."}}function ensureNonDriveRelativePath(t){return t.replace(DRIVE_RELATIVE_PATH,t=>`${t}/`)}const splitPatternOptions={parts:true};function splitPattern(t){var e;const n=picomatch.scan(t,splitPatternOptions);return ((e=n.parts)===null||e===void 0?void 0:e.length)?n.parts:[t]}const POSIX_UNESCAPED_GLOB_SYMBOLS=/(?<!\\)([()[\]{}*?|]|^!|[!+@](?=\()|\\(?![()[\]{}!*+?@|]))/g;const WIN32_UNESCAPED_GLOB_SYMBOLS=/(?<!\\)([()[\]{}]|^!|[!+@](?=\())/g;const escapePosixPath=t=>t.replace(POSIX_UNESCAPED_GLOB_SYMBOLS,"\\$&");const escapeWin32Path=t=>t.replace(WIN32_UNESCAPED_GLOB_SYMBOLS,"\\$&");const escapePath=isWin?escapeWin32Path:escapePosixPath;function isDynamicPattern(t,e){const n=picomatch.scan(t);return n.isGlob||n.negated}function log(...t){console.log(`[tinyglobby ${(new Date).toLocaleTimeString("es")}]`,...t);}function ensureStringArray(t){return typeof t==="string"?[t]:t!==null&&t!==void 0?t:[]}const PARENT_DIRECTORY=/^(\/?\.\.)+/;const ESCAPING_BACKSLASHES=/\\(?=[()[\]{}!*+?@|])/g;function normalizePattern(t,e,n,r){var o;const s=e.cwd;let i=t;if(t[t.length-1]==="/")i=t.slice(0,-1);if(i[i.length-1]!=="*"&&e.expandDirectories)i+="/**";const a=escapePath(s);i=isAbsolute(i.replace(ESCAPING_BACKSLASHES,""))?posix.relative(a,i):posix.normalize(i);const c=(o=PARENT_DIRECTORY.exec(i))===null||o===void 0?void 0:o[0];const l=splitPattern(i);if(c){const t=(c.length+1)/3;let e=0;const r=a.split("/");while(e<t&&l[e+t]===r[r.length+e-t]){i=i.slice(0,(t-e-1)*3)+i.slice((t-e)*3+l[e+t].length+1)||".";e++;}const o=posix.join(s,c.slice(e*3));if(o[0]!=="."&&n.root.length>o.length){n.root=ensureNonDriveRelativePath(o);n.depthOffset=-t+e;}}if(!r&&n.depthOffset>=0){var u;(u=n.commonPath)!==null&&u!==void 0||(n.commonPath=l);const t=[];const e=Math.min(n.commonPath.length,l.length);for(let r=0;r<e;r++){const e=l[r];if(e==="**"&&!l[r+1]){t.pop();break}if(r===l.length-1||e!==n.commonPath[r]||isDynamicPattern(e))break;t.push(e);}n.depthOffset=t.length;n.commonPath=t;n.root=ensureNonDriveRelativePath(t.length>0?posix.join(s,...t):s);}return i}function processPatterns(t,e,n){const r=[];const o=[];for(const e of t.ignore){if(!e)continue;if(e[0]!=="!"||e[1]==="(")o.push(normalizePattern(e,t,n,true));}for(const s of e){if(!s)continue;if(s[0]!=="!"||s[1]==="(")r.push(normalizePattern(s,t,n,false));else if(s[1]!=="!"||s[2]==="(")o.push(normalizePattern(s.slice(1),t,n,true));}return {match:r,ignore:o}}function buildCrawler(t,e){const n=t.cwd;const r={root:n,depthOffset:0};const o=processPatterns(t,e,r);if(t.debug)log("internal processing patterns:",o);const{absolute:s,caseSensitiveMatch:i,debug:a,dot:c,followSymbolicLinks:l,onlyDirectories:u}=t;const f=r.root.replace(BACKSLASHES,"");const p={dot:c,nobrace:t.braceExpansion===false,nocase:!i,noextglob:t.extglob===false,noglobstar:t.globstar===false,posix:true};const h=picomatch(o.match,p);const d=picomatch(o.ignore,p);const g=getPartialMatcher(o.match,p);const P=buildFormat(n,f,s);const S=s?P:buildFormat(n,f,true);const m=(t,e)=>{const n=S(e,true);return n!=="."&&!g(n)||d(n)};let v;if(t.deep!==void 0)v=Math.round(t.deep-r.depthOffset);const A=new Builder({filters:[a?(t,e)=>{const n=P(t,e);const r=h(n)&&!d(n);if(r)log(`matched ${n}`);return r}:(t,e)=>{const n=P(t,e);return h(n)&&!d(n)}],exclude:a?(t,e)=>{const n=m(t,e);log(`${n?"skipped":"crawling"} ${e}`);return n}:m,fs:t.fs,pathSeparator:"/",relativePaths:!s,resolvePaths:s,includeBasePath:s,resolveSymlinks:l,excludeSymlinks:!l,excludeFiles:u,includeDirs:u||!t.onlyFiles,maxDepth:v,signal:t.signal}).crawl(f);if(t.debug)log("internal properties:",{...r,root:f});return [A,n!==f&&!s&&buildRelative(n,f)]}function formatPaths(t,e){if(e)for(let n=t.length-1;n>=0;n--)t[n]=e(t[n]);return t}const defaultOptions={caseSensitiveMatch:true,debug:!!process.env.TINYGLOBBY_DEBUG,expandDirectories:true,followSymbolicLinks:true,onlyFiles:true};function getOptions(t){const e=Object.assign({},t);for(const t in defaultOptions)if(e[t]===void 0)Object.assign(e,{[t]:defaultOptions[t]});e.cwd=(e.cwd instanceof URL?fileURLToPath(e.cwd):resolve(e.cwd||process.cwd())).replace(BACKSLASHES,"/");e.ignore=ensureStringArray(e.ignore);e.fs&&(e.fs={readdir:e.fs.readdir||readdir,readdirSync:e.fs.readdirSync||readdirSync,realpath:e.fs.realpath||realpath,realpathSync:e.fs.realpathSync||realpathSync,stat:e.fs.stat||stat,statSync:e.fs.statSync||statSync});if(e.debug)log("globbing with options:",e);return e}function getCrawler(t,e={}){var n;if(t&&(e===null||e===void 0?void 0:e.patterns))throw new Error("Cannot pass patterns as both an argument and an option");const r=isReadonlyArray(t)||typeof t==="string";const o=ensureStringArray((n=r?t:t.patterns)!==null&&n!==void 0?n:"**/*");const s=getOptions(r?e:t);return o.length>0?buildCrawler(s,o):[]}async function glob(t,e){const[n,r]=getCrawler(t,e);return n?formatPaths(await n.withPromise(),r):[]}

function splitList(value) {
    return value
        .split(/[\n,]/)
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
}
async function resolveInputs(specs, kind, cwd = process.cwd(), onWarning = (message) => process.emitWarning(message), flag = `--${evidenceSource(kind).option}`) {
    const failed = [];
    const { found, add } = fileList(cwd, flag);
    const exclusions = specs.filter((spec) => spec.startsWith('!'));
    const included = specs.filter((spec) => !spec.startsWith('!'));
    if (exclusions.length > 0 && included.length === 0) {
        throw new UsageError(`${flag} '${exclusions[0]}' only excludes: give the files, folders or globs to read too`);
    }
    for (const spec of included) {
        if (spec.trim() === '') {
            throw new UsageError(`${flag} was given an empty path (an unset variable?): name a file, a folder or a glob ('.' for the working folder)`);
        }
        const abs = path.resolve(cwd, spec);
        let info = null;
        try {
            info = await stat$1(abs);
        }
        catch (error) {
            const code = errorCode(error);
            if (code !== 'ENOENT' && code !== 'ENOTDIR')
                throw new UsageError(`${flag} ${fileSystemFailure(error) ?? String(error)}`);
        }
        if (info?.isDirectory()) {
            for (const file of await searchDirectory(abs, kind, failed))
                add(file, false);
        }
        else if (info !== null) {
            add(abs, true);
        }
        else if (isDynamicPattern(spec)) {
            const matches = await glob(spec, {
                cwd,
                absolute: true,
                onlyFiles: false,
                dot: true,
                followSymbolicLinks: true,
                fs: recordingFs(failed),
            });
            if (matches.length === 0)
                throw new UsageError(`${flag} pattern '${spec}' matches no file`);
            for (const match of matches.sort()) {
                const m = await stat$1(match).catch(() => null);
                if (m?.isDirectory())
                    for (const file of await searchDirectory(match, kind, failed))
                        add(file, false);
                else if (m?.isFile())
                    add(path.resolve(match), false);
            }
        }
        else {
            throw new UsageError(`${flag} path '${spec}' does not exist (looked in ${cwd})`);
        }
    }
    warnUnreadableFolders(failed, flag, cwd, onWarning);
    const kept = exclusions.length === 0 ? found : leaveOut(found, exclusions, cwd);
    const sorted = kept.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (exclusions.length > 0)
        excludedCounts.set(sorted, { count: found.length - kept.length, by: exclusions });
    return sorted;
}
function fileList(cwd, flag) {
    const found = [];
    const byInode = new Map();
    const unreadable = new Set();
    const add = (abs, named) => {
        let info = null;
        try {
            info = statSync$1(abs, { throwIfNoEntry: false }) ?? null;
        }
        catch {
        }
        if (info === null) {
            const real = realPathOr(abs);
            if (unreadable.has(real))
                return;
            unreadable.add(real);
            found.push({ path: abs, name: displayName(abs, cwd) });
            return;
        }
        if (!info.isFile()) {
            if (named)
                throw new UsageError(`${flag} '${abs}' is ${fileKind(info)}, not a regular file`);
            return;
        }
        const inode = `${info.dev}:${info.ino}`;
        const listed = byInode.get(inode);
        if (listed === undefined)
            byInode.set(inode, [{ abs }]);
        else {
            const real = realPathOr(abs);
            for (const other of listed)
                if ((other.real ??= realPathOr(other.abs)) === real)
                    return;
            listed.push({ abs, real });
        }
        found.push({ path: abs, name: displayName(abs, cwd), size: info.size });
    };
    return { found, add };
}
function warnUnreadableFolders(failed, flag, cwd, onWarning) {
    for (const folder of failed) {
        const why = fileSystemFailure(folder.error)?.replace(/^.*?: cannot \w+ it: /, '') ?? folder.error.message;
        onWarning(`${flag}: cannot read the folder '${displayName(path.resolve(cwd, folder.path), cwd)}': ${why}; any input files in it are not read`);
    }
}
const excludedCounts = new WeakMap();
function leaveOut(files, exclusions, cwd) {
    const matchers = exclusions.map((spec) => {
        const pattern = spec
            .slice(1)
            .replace(/^(\.\/)+/, '')
            .replace(/\/+$/, '');
        const absolute = path.isAbsolute(pattern);
        const glob = absolute ? pattern.split(path.sep).join('/') : pattern;
        const matches = picomatch([glob, `${glob}/**`], { dot: true, windows: false });
        return (file) => {
            const abs = file.path.split(path.sep).join('/');
            const rel = path.relative(cwd, file.path).split(path.sep).join('/');
            return matches(absolute ? abs : rel.startsWith('../') || path.isAbsolute(rel) ? abs.replace(/^\/+/, '') : rel);
        };
    });
    return files.filter((file) => !matchers.some((m) => m(file)));
}
function realPathOr(abs) {
    try {
        return realpathSync$1.native(abs);
    }
    catch {
        return abs;
    }
}
function fileKind(info) {
    if (info.isFIFO())
        return 'a FIFO';
    if (info.isSocket())
        return 'a socket';
    if (info.isCharacterDevice() || info.isBlockDevice())
        return 'a device';
    if (info.isDirectory())
        return 'a folder';
    return 'not a regular file';
}
function errorCode(error) {
    return error instanceof Error ? error.code : undefined;
}
function recordingFs(failed) {
    const readdir = ((dir, options, callback) => fs$1.readdir(dir, options, (error, entries) => {
        if (error)
            failed.push({ path: String(dir), error });
        callback(error, entries);
    }));
    return { readdir };
}
function patternsFor(dir, kind) {
    const source = evidenceSource(kind);
    const name = path.basename(dir);
    const own = source.folderPatterns?.find((p) => picomatch.isMatch(name, p.folder, { dot: true }));
    return withCompressed(own?.patterns ?? source.directoryPatterns);
}
function withCompressed(patterns) {
    return [
        ...patterns.filter((p) => !p.startsWith('!')),
        ...patterns.filter((p) => !p.startsWith('!')).flatMap((p) => [`${p}.gz`, `${p}.zst`]),
        ...patterns.filter((p) => p.startsWith('!')),
    ];
}
async function searchDirectory(dir, kind, failed) {
    const files = await glob([...patternsFor(dir, kind)], {
        cwd: dir,
        absolute: true,
        onlyFiles: true,
        dot: true,
        followSymbolicLinks: true,
        fs: recordingFs(failed),
    });
    return files.map((f) => path.resolve(f));
}
function displayName(abs, cwd) {
    const rel = path.relative(cwd, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
        return abs;
    return rel.split(path.sep).join('/');
}
const SEARCHED_CHARS = 160;
function describeSearches(specs, nameOf = (s) => `--${s.option}`) {
    const byPath = new Map();
    for (const source of SOURCES) {
        for (const spec of specs[source.name] ?? []) {
            const names = byPath.get(spec) ?? [];
            if (!names.includes(nameOf(source)))
                names.push(nameOf(source));
            byPath.set(spec, names);
        }
    }
    const parts = [];
    let chars = 0;
    for (const [spec, names] of byPath) {
        const shown = spec.length > 80 ? `${spec.slice(0, 39)}…${spec.slice(-40)}` : spec;
        const part = `'${shown}' (${names.join(', ')})`;
        if (parts.length > 0 && chars + part.length > SEARCHED_CHARS) {
            parts.push(`${byPath.size - parts.length} more`);
            break;
        }
        parts.push(part);
        chars += part.length + 2;
    }
    return parts.join(', ');
}
async function resolveAllInputs(specs, cwd = process.cwd(), onWarning, flagOf = (source) => `--${source.option}`, options = {}) {
    const files = {};
    for (const source of SOURCES)
        files[source.name] = await resolveInputs(specs[source.name] ?? [], source.name, cwd, onWarning, flagOf(source));
    const found = SOURCES.some((source) => (files[source.name] ?? []).length > 0);
    for (const source of SOURCES) {
        const given = (specs[source.name] ?? []).filter((spec) => !spec.startsWith('!'));
        const list = files[source.name] ?? [];
        if (!found || given.length === 0 || list.length > 0 || options.unmatched === 'ignore')
            continue;
        const excluded = excludedCounts.get(list);
        const left = excluded === undefined || excluded.count === 0
            ? ''
            : ` (${excluded.count} left out by ${excluded.by.map((e) => `'${e}'`).join(', ')})`;
        const message = `${flagOf(source)} ${given.map((spec) => `'${spec}'`).join(' ')} matched no ${source.label} file${left}: check the path (${options.searchHelp ?? "'ascend-memory-gate --help' lists what a folder is searched for"}), or leave the flag out`;
        if (options.unmatched === 'warn')
            onWarning?.(message);
        else
            throw new UsageError(message);
    }
    return files;
}

const DEFAULT_HISTORY_SIZE = 200;
const MAX_HISTORY_SIZE = 1000;

export { DEFAULT_HISTORY_SIZE as D, MAX_HISTORY_SIZE as M, describeSearches as d, glob as g, picomatch as p, resolveAllInputs as r, splitList as s };
