import { createReadStream, mkdtempSync, createWriteStream, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipSync, createGunzip } from 'node:zlib';
import { I as InputError } from './errors.js';

var ab=ArrayBuffer,u8=Uint8Array,u16=Uint16Array,i16=Int16Array,i32=Int32Array;var slc=function(r,a,e){if(u8.prototype.slice)return u8.prototype.slice.call(r,a,e);if(a==null||a<0)a=0;if(e==null||e>r.length)e=r.length;var t=new u8(e-a);t.set(r.subarray(a,e));return t};var fill=function(r,a,e,t){if(u8.prototype.fill)return u8.prototype.fill.call(r,a,e,t);if(e==null||e<0)e=0;if(t==null||t>r.length)t=r.length;for(;e<t;++e)r[e]=a;return r};var cpw=function(r,a,e,t){if(u8.prototype.copyWithin)return u8.prototype.copyWithin.call(r,a,e,t);if(e==null||e<0)e=0;if(t==null||t>r.length)t=r.length;while(e<t){r[a++]=r[e++];}};var ec=["invalid zstd data","window size too large (>2046MB)","invalid block type","FSE accuracy too high","match distance too far back","unexpected EOF"];var err=function(r,a,e){var t=new Error(a||ec[r]);t.code=r;if(Error.captureStackTrace)Error.captureStackTrace(t,err);if(!e)throw t;return t};var rb=function(r,a,e){var t=0,i=0;for(;t<e;++t)i|=r[a++]<<(t<<3);return i};var b4=function(r,a){return (r[a]|r[a+1]<<8|r[a+2]<<16|r[a+3]<<24)>>>0};var rzfh=function(r,a){var e=r[0]|r[1]<<8|r[2]<<16;if(e==3126568&&r[3]==253){var t=r[4];var i=t>>5&1,s=t>>2&1,f=t&3,n=t>>6;if(t&8)err(0);var l=6-i;var v=f==3?4:f;var u=rb(r,l,v);l+=v;var h=n?1<<n:i;var o=rb(r,l,h)+(n==1&&256);var b=o;if(!i){var c=1<<10+(r[5]>>3);b=c+(c>>3)*(r[5]&7);}if(b>2145386496)err(1);var y=new u8((b)+12);y[0]=1,y[4]=4,y[8]=8;return {b:l+h,y:0,l:0,d:u,w:a&&a!=1?a:y.subarray(12),e:b,o:new i32(y.buffer,0,3),u:o,c:s,m:Math.min(131072,b)}}else if((e>>4|r[3]<<20)==25481893){return b4(r,4)+8}err(0);};var msb=function(r){var a=0;for(;1<<a<=r;++a);return a-1};var rfse=function(r,a,e){var t=(a<<3)+4;var i=(r[a]&15)+5;if(i>e)err(3);var s=1<<i;var f=s,n=-1,l=-1,v=-1,u=s;var h=new ab(512+(s<<2));var o=new i16(h,0,256);var b=new u16(h,0,256);var c=new u16(h,512,s);var y=512+(s<<1);var w=new u8(h,y,s);var p=new u8(h,y+s);while(n<255&&f>0){var d=msb(f+1);var g=t>>3;var m=(1<<d+1)-1;var z=(r[g]|r[g+1]<<8|r[g+2]<<16)>>(t&7)&m;var k=(1<<d)-1;var E=m-f-1;var A=z&k;if(A<E)t+=d,z=A;else {t+=d+1;if(z>k)z-=E;}o[++n]=--z;if(z==-1){f+=z;w[--u]=n;}else f-=z;if(!z){do{var T=t>>3;l=(r[T]|r[T+1]<<8)>>(t&7)&3;t+=2;n+=l;}while(l==3)}}if(n>255||f)err(0);var x=0;var F=(s>>1)+(s>>3)+3;var S=s-1;for(var B=0;B<=n;++B){var D=o[B];if(D<1){b[B]=-D;continue}for(v=0;v<D;++v){w[x]=B;do{x=x+F&S;}while(x>=u)}}if(x)err(0);for(v=0;v<s;++v){var I=b[w[v]]++;var U=p[v]=i-msb(I);c[v]=(I<<U)-s;}return [t+7>>3,{b:i,s:w,n:p,t:c}]};var rhu=function(r,a){var e=0,t=-1;var i=new u8(292),s=r[a];var f=i.subarray(0,256);var n=i.subarray(256,268);var l=new u16(i.buffer,268);if(s<128){var v=rfse(r,a+1,6),u=v[0],h=v[1];a+=s;var o=u<<3;var b=r[a];if(!b)err(0);var c=0,y=0,w=h.b,p=w;var d=(++a<<3)-8+msb(b);for(;;){d-=w;if(d<o)break;var g=d>>3;c+=(r[g]|r[g+1]<<8)>>(d&7)&(1<<w)-1;f[++t]=h.s[c];d-=p;if(d<o)break;g=d>>3;y+=(r[g]|r[g+1]<<8)>>(d&7)&(1<<p)-1;f[++t]=h.s[y];w=h.n[c];c=h.t[c];p=h.n[y];y=h.t[y];}if(++t>255)err(0);}else {t=s-127;for(;e<t;e+=2){var m=r[++a];f[e]=m>>4;f[e+1]=m&15;}++a;}var z=0;for(e=0;e<t;++e){var k=f[e];if(k>11)err(0);z+=k&&1<<k-1;}var E=msb(z)+1;var A=1<<E;var T=A-z;if(T&T-1)err(0);f[t++]=msb(T)+1;for(e=0;e<t;++e){var k=f[e];++n[f[e]=k&&E+1-k];}var x=new u8(A<<1);var F=x.subarray(0,A),S=x.subarray(A);l[E]=0;for(e=E;e>0;--e){var B=l[e];fill(S,e,B,l[e-1]=B+n[e]*(1<<E-e));}if(l[0]!=A)err(0);for(e=0;e<t;++e){var D=f[e];if(D){var I=l[D];fill(F,e,I,l[D]=I+(1<<E-D));}}return [a,{n:S,b:E,s:F}]};var dllt=rfse(new u8([81,16,99,140,49,198,24,99,12,33,196,24,99,102,102,134,70,146,4]),0,6)[1];var dmlt=rfse(new u8([33,20,196,24,99,140,33,132,16,66,8,33,132,16,66,8,33,68,68,68,68,68,68,68,68,36,9]),0,6)[1];var doct=rfse(new u8([32,132,16,66,102,70,68,68,68,68,36,73,2]),0,5)[1];var b2bl=function(r,a){var e=r.length,t=new i32(e);for(var i=0;i<e;++i){t[i]=a;a+=1<<r[i];}return t};var llb=new u8(new i32([0,0,0,0,16843009,50528770,134678020,202050057,269422093]).buffer,0,36);var llbl=b2bl(llb,0);var mlb=new u8(new i32([0,0,0,0,0,0,0,0,16843009,50528770,117769220,185207048,252579084,16]).buffer,0,53);var mlbl=b2bl(mlb,3);var dhu=function(r,a,e){var t=r.length,i=a.length,s=r[t-1],f=(1<<e.b)-1,n=-e.b;if(!s)err(0);var l=0,v=e.b,u=(t<<3)-8+msb(s)-v,h=-1;for(;u>n&&h<i;){var o=u>>3;var b=(r[o]|r[o+1]<<8|r[o+2]<<16)>>(u&7);l=(l<<v|b)&f;a[++h]=e.s[l];u-=v=e.n[l];}if(u!=n||h+1!=i)err(0);};var dhu4=function(r,a,e){var t=6;var i=a.length,s=i+3>>2,f=s<<1,n=s+f;dhu(r.subarray(t,t+=r[0]|r[1]<<8),a.subarray(0,s),e);dhu(r.subarray(t,t+=r[2]|r[3]<<8),a.subarray(s,f),e);dhu(r.subarray(t,t+=r[4]|r[5]<<8),a.subarray(f,n),e);dhu(r.subarray(t),a.subarray(n),e);};var rzb=function(r,a,e){var t;var i=a.b;var s=r[i],f=s>>1&3;a.l=s&1;var n=s>>3|r[i+1]<<5|r[i+2]<<13;var l=(i+=3)+n;if(f==1){if(i>=r.length)return;a.b=i+1;return fill(new u8(n),r[i])}if(l>r.length)return;if(f==0){a.b=l;return slc(r,i,l)}if(f==2){var v=r[i],u=v&3,h=v>>2&3;var o=v>>4,b=0,c=0;if(u<2){if(h&1)o|=r[++i]<<4|(h&2&&r[++i]<<12);else o=v>>3;}else {c=h;if(h<2)o|=(r[++i]&63)<<4,b=r[i]>>6|r[++i]<<2;else if(h==2)o|=r[++i]<<4|(r[++i]&3)<<12,b=r[i]>>2|r[++i]<<6;else o|=r[++i]<<4|(r[++i]&63)<<12,b=r[i]>>6|r[++i]<<2|r[++i]<<10;}++i;var y=new u8(a.m);var w=y.length-o;if(u==0)y.set(r.subarray(i,i+=o),w);else if(u==1)fill(y,r[i++],w);else {var p=a.h;if(u==2){var d=rhu(r,i);b+=i-(i=d[0]);a.h=p=d[1];}else if(!p)err(0);(c?dhu4:dhu)(r.subarray(i,i+=b),y.subarray(w),p);}var g=r[i++];if(g){if(g==255)g=(r[i++]|r[i++]<<8)+32512;else if(g>127)g=g-128<<8|r[i++];var m=r[i++];if(m&3)err(0);var z=[dmlt,doct,dllt];for(var k=2;k>-1;--k){var E=m>>(k<<1)+2&3;if(E==1){var A=new u8([0,0,r[i++]]);z[k]={s:A.subarray(2,3),n:A.subarray(0,1),t:new u16(A.buffer,0,1),b:0};}else if(E==2){t=rfse(r,i,9-(k&1)),i=t[0],z[k]=t[1];}else if(E==3){if(!a.t)err(0);z[k]=a.t[k];}}var T=a.t=z,x=T[0],F=T[1],S=T[2];var B=r[l-1];if(!B)err(0);var D=(l<<3)-8+msb(B)-S.b,I=D>>3,U=0;var M=(r[I]|r[I+1]<<8)>>(D&7)&(1<<S.b)-1;I=(D-=F.b)>>3;var W=(r[I]|r[I+1]<<8)>>(D&7)&(1<<F.b)-1;I=(D-=x.b)>>3;var O=(r[I]|r[I+1]<<8)>>(D&7)&(1<<x.b)-1;for(++g;--g;){var j=S.s[M];var C=S.n[M];var H=x.s[O];var L=x.n[O];var Z=F.s[W];var q=F.n[W];I=(D-=Z)>>3;var G=1<<Z;var J=G+((r[I]|r[I+1]<<8|r[I+2]<<16|r[I+3]<<24)>>>(D&7)&G-1);I=(D-=mlb[H])>>3;var K=mlbl[H]+((r[I]|r[I+1]<<8|r[I+2]<<16)>>(D&7)&(1<<mlb[H])-1);I=(D-=llb[j])>>3;var N=llbl[j]+((r[I]|r[I+1]<<8|r[I+2]<<16)>>(D&7)&(1<<llb[j])-1);I=(D-=C)>>3;M=S.t[M]+((r[I]|r[I+1]<<8)>>(D&7)&(1<<C)-1);I=(D-=L)>>3;O=x.t[O]+((r[I]|r[I+1]<<8)>>(D&7)&(1<<L)-1);I=(D-=q)>>3;W=F.t[W]+((r[I]|r[I+1]<<8)>>(D&7)&(1<<q)-1);if(J>3){a.o[2]=a.o[1];a.o[1]=a.o[0];a.o[0]=J-=3;}else {var P=J-(N!=0);if(P){J=P==3?a.o[0]-1:a.o[P];if(P>1)a.o[2]=a.o[1];a.o[1]=a.o[0];a.o[0]=J;}else J=a.o[0];}for(var k=0;k<N;++k){y[U+k]=y[w+k];}U+=N,w+=N;var Q=U-J;if(Q<0){var R=-Q;var V=a.e+Q;if(R>K)R=K;for(var k=0;k<R;++k){y[U+k]=a.w[V+k];}U+=R,K-=R,Q=0;}for(var k=0;k<K;++k){y[U+k]=y[Q+k];}U+=K;}if(U!=w){while(w<y.length){y[U++]=y[w++];}}else U=y.length;y=slc(y,0,U);}else { var k; if(w)y=slc(y,w); }a.b=l;return y}err(2);};var cct=function(r,a){if(r.length==1)return r[0];var e=new u8(a);for(var t=0,i=0;t<r.length;++t){var s=r[t];e.set(s,i);i+=s.length;}return e};var Decompress=function(){function r(r){this.ondata=r;this.c=[];this.l=0;this.z=0;}r.prototype.push=function(r,a){if(typeof this.s=="number"){var e=Math.min(r.length,this.s);r=r.subarray(e);this.s-=e;}var t=r.length;var i=t+this.l;if(!this.s){if(a){if(!i){this.ondata(new u8(0),true);return}if(i<5)err(5);}else if(i<18){this.c.push(r);this.l=i;return}if(this.l){this.c.push(r);r=cct(this.c,i);this.c=[];this.l=0;}if(typeof(this.s=rzfh(r))=="number")return this.push(r,a)}if(typeof this.s!="number"){if(i<(this.z||3)){if(a)err(5);this.c.push(r);this.l=i;return}if(this.l){this.c.push(r);r=cct(this.c,i);this.c=[];this.l=0;}if(!this.z&&i<(this.z=r[this.s.b]&2?4:3+(r[this.s.b]>>3|r[this.s.b+1]<<5|r[this.s.b+2]<<13))){if(a)err(5);this.c.push(r);this.l=i;return}else this.z=0;for(;;){var s=rzb(r,this.s);if(!s){if(a)err(5);var f=r.subarray(this.s.b);this.s.b=0;this.c.push(f),this.l+=f.length;return}else {this.ondata(s,false);cpw(this.s.w,0,s.length);this.s.w.set(s,this.s.w.length-s.length);}if(this.s.l){var n=r.subarray(this.s.b);this.s=this.s.c*4;this.push(n,a);return}}}else if(a)err(5);};return r}();

function isCompressed(name) {
    return /\.(gz|zst)$/i.test(name);
}
function isZstd(name) {
    return /\.zst$/i.test(name);
}
class ZstdFailure extends Error {
}
function zstdStream() {
    const guarded = (run, done) => {
        try {
            run();
            done();
        }
        catch (error) {
            const early = error.code === 5;
            done(new ZstdFailure(early ? 'unexpected end of file' : error instanceof Error ? error.message : String(error)));
        }
    };
    const out = new Transform({
        transform(chunk, _encoding, done) {
            guarded(() => d.push(chunk), done);
        },
        flush(done) {
            guarded(() => d.push(new Uint8Array(0), true), done);
        },
    });
    const d = new Decompress((data) => {
        if (data.length > 0)
            out.push(Buffer.from(data));
    });
    return out;
}
function inflater(name, chunkBytes = 64 * 1024) {
    return isZstd(name) ? zstdStream() : createGunzip({ chunkSize: Math.min(64 * 1024, Math.max(64, chunkBytes)) });
}
function gzipFailure(name, error) {
    const code = error?.code;
    const kind = isZstd(name) ? 'zstd' : 'gzip';
    const why = code === 'Z_BUF_ERROR' || /unexpected end/i.test(String(error?.message))
        ? `the ${kind} stream ends early (cut short while it was written or copied)`
        : `not a readable ${kind} file (${error instanceof Error ? error.message : String(error)})`;
    return new InputError(`${name}: ${why}: compress it again, or give the file uncompressed`);
}
async function* gunzipChunks(path, name, chunkBytes) {
    const source = createReadStream(path);
    const stream = inflater(path, chunkBytes);
    source.on('error', (error) => stream.destroy(error));
    source.pipe(stream);
    let parts = [];
    let held = 0;
    try {
        for await (const piece of stream) {
            let rest = piece;
            while (held + rest.length >= chunkBytes) {
                const take = chunkBytes - held;
                parts.push(rest.subarray(0, take));
                yield parts.length === 1 ? parts[0] : Buffer.concat(parts, chunkBytes);
                parts = [];
                held = 0;
                rest = rest.subarray(take);
            }
            if (rest.length > 0) {
                parts.push(Buffer.from(rest));
                held += rest.length;
            }
        }
    }
    catch (error) {
        if (error.syscall !== undefined)
            throw error;
        throw gzipFailure(name, error);
    }
    finally {
        source.destroy();
        stream.destroy();
    }
    if (held > 0)
        yield Buffer.concat(parts, held);
}
function gunzipWhole(bytes, name, maxBytes) {
    if (isZstd(name))
        return unzstdWhole(bytes, name, maxBytes);
    try {
        return gunzipSync(bytes, { maxOutputLength: maxBytes });
    }
    catch (error) {
        if (error.code === 'ERR_BUFFER_TOO_LARGE')
            throw new InputError(`${name}: inflates to more than ${maxBytes} bytes, too large for a memory snapshot`);
        throw gzipFailure(name, error);
    }
}
const MAX_INFLATED_PICKLE_BYTES = 8 * 1024 ** 3;
async function inflatePickle(path, name, read, maxBytes = MAX_INFLATED_PICKLE_BYTES) {
    const dir = mkdtempSync(join(tmpdir(), 'amg-snapshot-'));
    try {
        const inflated = join(dir, 'snapshot.pickle');
        let written = 0;
        const tooLarge = new InputError(`${name}: inflates to more than ${maxBytes} bytes, more than the largest memory snapshot read (${maxBytes}): give it uncompressed`);
        const cap = new Transform({
            transform(chunk, _encoding, done) {
                written += chunk.length;
                done(written > maxBytes ? tooLarge : null, chunk);
            },
        });
        try {
            await pipeline(createReadStream(path), inflater(path), cap, createWriteStream(inflated, { flags: 'wx', mode: 0o600 }));
        }
        catch (error) {
            if (error === tooLarge)
                throw tooLarge;
            if (error.syscall !== undefined)
                throw error;
            throw gzipFailure(name, error);
        }
        return await read(inflated);
    }
    finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
function unzstdWhole(bytes, name, maxBytes) {
    const parts = [];
    let held = 0;
    const d = new Decompress((data) => {
        held += data.length;
        if (held > maxBytes)
            throw new InputError(`${name}: inflates to more than ${maxBytes} bytes, too large for a memory snapshot`);
        parts.push(Buffer.from(data));
    });
    try {
        for (let at = 0; at < bytes.length; at += 64 * 1024)
            d.push(bytes.subarray(at, at + 64 * 1024));
        d.push(new Uint8Array(0), true);
    }
    catch (error) {
        if (error instanceof InputError)
            throw error;
        throw gzipFailure(name, error.code === 5 ? new Error('unexpected end of file') : error);
    }
    return Buffer.concat(parts, held);
}

export { inflatePickle as a, gunzipWhole as b, gunzipChunks as g, isCompressed as i };
