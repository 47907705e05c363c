import { I as InputError } from './errors.js';

class HostError extends InputError {
    status;
    constructor(message, status) {
        super(message);
        this.status = status;
        this.name = 'HostError';
    }
}

export { HostError as H };
